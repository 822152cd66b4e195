/**
 * The page's icon, three ranked bars, served from here: without one the browser asks for
 * /favicon.ico, gets a 404 and logs it as a console error.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2937"/><rect x="6" y="18" width="5" height="8" rx="1" fill="#9ca3af"/><rect x="13.5" y="8" width="5" height="18" rx="1" fill="#f59e0b"/><rect x="21" y="13" width="5" height="13" rx="1" fill="#d1d5db"/></svg>
`;
