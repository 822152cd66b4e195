import { useState, type ClipboardEvent, type DragEvent } from "react";
import type { PickedImage } from "./answers.ts";

interface Props {
  images: PickedImage[];
  /** Why files were left out of the last drop, paste or choice; empty when none were. */
  notices: string[];
  max: number;
  onFiles: (files: File[]) => void;
  onRemove: (index: number) => void;
  onClear: () => void;
}

/** Where images come in (drop, paste or a file picker), their thumbnails, and what was left out. */
export function ImageDropZone({ images, notices, max, onFiles, onRemove, onClear }: Props) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={["drop card", dragging ? "dragging" : "", images.length === 0 ? "empty-drop" : ""].join(" ").trim()}
      onDragOver={(e: DragEvent) => { e.preventDefault(); setDragging(true); }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e: DragEvent) => { e.preventDefault(); setDragging(false); onFiles([...e.dataTransfer.files]); }}
      onPaste={(e: ClipboardEvent) => onFiles([...e.clipboardData.files])}
      tabIndex={0}
      aria-label="Images to rank: drop or paste them here"
    >
      <p>
        Drop images here, paste them, or{" "}
        <label className="file">choose files<input className="visually-hidden" type="file" name="images" accept="image/png,image/jpeg,image/webp,image/gif" multiple onChange={(e) => { if (e.target.files) onFiles([...e.target.files]); e.target.value = ""; }} /></label>
      </p>
      <p className="muted small">PNG, JPEG, WebP or GIF, up to {max} at a time.</p>
      {notices.length > 0 && (
        <ul className="notices" data-testid="dropped-files" aria-live="polite">
          {notices.map((n) => <li key={n}>{n}</li>)}
        </ul>
      )}
      {images.length > 0 && (
        <>
          <div className="thumbs">
            {images.map((img, i) => (
              <figure key={img.name}>
                <img src={img.dataUri} alt={img.name} />
                <figcaption title={img.name}>{img.name}</figcaption>
                <button type="button" className="remove" aria-label={`Remove ${img.name}`} onClick={() => onRemove(i)}>×</button>
              </figure>
            ))}
          </div>
          <button className="link" onClick={onClear}>Clear images</button>
        </>
      )}
    </div>
  );
}
