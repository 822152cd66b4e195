// Three small but real creatives (64 x 64 PNG) for the examples. Data URIs, so "Test request"
// on the docs page and a pasted curl work without the server fetching anything; the
// intake decodes them like any upload (more than 8 px a side and not one flat colour,
// so they are judged as images, not as copy only).

/** File name of each example creative: the CLI uses the file name as the asset id, so do the examples. */
export const SUNRISE_RUN = "sunrise-run.png";
export const STUDIO_SHOE = "studio-shoe.png";
export const SALE_BADGE = "sale-badge.png";

/** Lifestyle shot: a sun over green hills at dawn, with a white call-to-action bar. */
export const SUNRISE_RUN_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAA6ElEQVR4nO3WyQ3CMBRF0V8RFVAEa0QNVEIxVEMxCCnsEALn4yH2s82N3i5Scs8ig90vh6Fn8gIA6gIA6gIA6gIA6gIA6gIA6gIAunsvt+P3kgGP67n9gunvi7+UAPCzPskAoE59vAEAAAAA/gsw/HdgBsDw/0I+I/UiSsAmA6CeBrA77YPrHbDWXcJoBIhMz2C0AGTUxzPqAkrSIxkVAVvV+wbLe/ZbpvsMK3mFNa4Pdppzrrf0YKo55/pM/0gNAJIYqvTXVgG+RN6dAOh8ANQDoB4A9SYFLPUPAAAAAJgZMNAAqDc84AkTwGsZ/33LfQAAAABJRU5ErkJggg==";

/** Product shot: a blue trail shoe on a light grey studio ground, with a black call-to-action bar. */
export const STUDIO_SHOE_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAoklEQVR4nO3PQRGAMBAEQUTwRiI6EZIHGnjhgAqQu0lSs7UCppdSzqG/4AUC6AIBdIEAukAAXSCALhBAFwigCwTQBQLoAgF0gQC6IBuw7cfDhwfkS6IAaYxYQAIjAxAqSQVEMABAWwkJaMLgAT8ZvQA+S7oDvGV0Cqg3VAEubgIECGgB6PkC6AugL4C+APoC6E8KWOMnQIAAATMDBroA+sMDbuQlggDO3bgUAAAAAElFTkSuQmCC";

/** Price-led creative: a red sale tag with a white price stripe on an off-white ground, with a yellow call-to-action bar. */
export const SALE_BADGE_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAA2klEQVR42u3ZyxGDMAxFUTVBC+q/kJRABdllJqtsQgX5gHkP2b6Ml3jQASODFM/HvesRAAAAADA2YM3sDLBmfh9FAT/jFkniqujPMoRhwUgZoYu+5WQHYO99FT2HcKYahSF0b237FBXgWIYR5aVQZ8xjUwoB1JvDZABD9HsNADLfDQeAqQCfLqYA/G9gCQEAMNVGxsccAOcfmadSFOZKVk8/9aUBCkO5ypynSBpXlXVL1EZHqE4P0h8YoUMzTo+MNisAAABOAbxuS6kBAAAAAAC8AHZiAAAAWMYGzvFWD5M8PB4AAAAASUVORK5CYII=";

/** Images a client hosts itself: the server fetches https:// URLs (public addresses only). */
export const HOSTED_IMAGES = {
  beachBanner: "https://cdn.northpeak.example/creatives/2025-summer/beach-banner-1080.jpg",
  mountainBanner: "https://cdn.northpeak.example/creatives/2025-summer/mountain-banner-1080.jpg",
  cityBanner: "https://cdn.northpeak.example/creatives/2025-summer/city-banner-1080.jpg",
  lakeBanner: "https://cdn.northpeak.example/creatives/2025-summer/lake-banner-1080.jpg",
};
