/** The image types the API decodes; anything else would only come back as an error. */
export const ACCEPTED_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

interface FileLike {
  name: string;
  type: string;
}

/**
 * Which of the dropped, pasted or chosen `files` join the `alreadyPicked` images, at most
 * `max` in all, and one sentence per file left out, so nothing is cut silently.
 *
 * @example pickImages([png, txt], 0, 20) // { kept: [png], notices: ["notes.txt is not an image: skipped"] }
 */
export function pickImages<F extends FileLike>(files: readonly F[], alreadyPicked: number, max: number): { kept: F[]; notices: string[] } {
  const notices: string[] = [];
  const images: F[] = [];
  for (const file of files) {
    const name = file.name || "A pasted item";
    if (!file.type.startsWith("image/")) notices.push(`${name} is not an image: skipped`);
    else if (!ACCEPTED_IMAGE_TYPES.includes(file.type)) notices.push(`${name} is ${typeName(file.type)} image; the API takes PNG, JPEG, WebP and GIF: skipped`);
    else images.push(file);
  }
  const room = Math.max(0, max - alreadyPicked);
  if (images.length > room) {
    const left = images.slice(room).map((f) => f.name);
    const which = left.length <= 3 ? `${left.join(", ")} left out` : `${left.length} left out`;
    notices.push(`${alreadyPicked + images.length} images: only the first ${max} were kept (${which})`);
  }
  return { kept: images.slice(0, room), notices };
}

/** "image/svg+xml" → "an SVG". */
function typeName(mime: string): string {
  const sub = mime.slice("image/".length).replace(/\+.*$/, "").toUpperCase();
  if (!sub) return "an unknown kind of";
  // Read letter by letter: "an SVG", "an HEIC", "a BMP".
  return /^[AEIOUFHLMNRSX]/.test(sub) ? `an ${sub}` : `a ${sub}`;
}

/** A name no picked image has yet ("ad.png", then "ad (2).png"): names are the assets' ids. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  // Ids may be 128 characters long; the suffix needs a few.
  const base = name.length > 100 ? name.slice(0, 100) : name;
  if (!taken.has(base)) return base;
  const dot = base.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ""];
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
