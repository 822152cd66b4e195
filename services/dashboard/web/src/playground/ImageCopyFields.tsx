import type { PickedImage } from "./answers.ts";
import { NO_COPY, ownCopyCount, type CopyFields } from "./image-copy.ts";
import "./image-copy.css";

interface Props {
  images: PickedImage[];
  /** Image name → its own headline and body. */
  own: Record<string, CopyFields>;
  /** The headline and body every image gets unless it has its own. */
  shared: CopyFields;
  onChange: (name: string, copy: CopyFields) => void;
}

/**
 * "Copy for each image" (collapsed): one row per picked image, by name, with its own headline
 * and body. An empty field takes the shared one, shown as the field's placeholder, so what
 * each image is sent with is readable at a glance.
 */
export function ImageCopyFields({ images, own, shared, onChange }: Props) {
  if (images.length === 0) return null;
  const count = ownCopyCount(images.map((i) => i.name), own);
  const inherited = (text: string) => (text.trim() ? text : "optional");
  return (
    <details className="image-copy" data-testid="image-copy">
      <summary>Copy for each image{count > 0 ? ` (${count} of ${images.length} with their own)` : " (optional)"}</summary>
      <p className="muted small">An image's own headline or body replaces the shared one; left empty, the shared one is sent (shown greyed).</p>
      <div className="image-copy-rows">
        {images.map((img) => {
          const copy = own[img.name] ?? NO_COPY;
          return (
            <div className="image-copy-row" key={img.name} role="group" aria-label={`Copy for ${img.name}`} data-testid="image-copy-row">
              <span className="image-copy-name" title={img.name}><img src={img.dataUri} alt="" />{img.name}</span>
              <label>Headline<input name="imageHeadline" aria-label={`Headline for ${img.name}`} value={copy.headline} placeholder={inherited(shared.headline)} onChange={(e) => onChange(img.name, { ...copy, headline: e.target.value })} /></label>
              <label>Body<input name="imageBody" aria-label={`Body for ${img.name}`} value={copy.body} placeholder={inherited(shared.body)} onChange={(e) => onChange(img.name, { ...copy, body: e.target.value })} /></label>
            </div>
          );
        })}
      </div>
    </details>
  );
}
