/** Text made safe for HTML and SVG, in element content and in quoted attribute values alike. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A thumbnail's src, or null: only data URIs of images go into a report, which must never fetch anything. */
export const safeImageSrc = (uri: string | undefined): string | null => (uri !== undefined && /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/.test(uri) ? uri : null);
