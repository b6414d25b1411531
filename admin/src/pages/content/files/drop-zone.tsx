import { useId, useState, type DragEvent } from 'react';
import type { FileFieldRules } from '../../../content-types';
import { inputAccept } from './file-rules';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** Where files are dropped onto a field, or picked for it with the platform's file chooser. */
export function DropZone({
  field,
  label,
  describedBy,
  onFiles,
}: {
  field: FileFieldRules;
  /** What people call the field. */
  label: string;
  describedBy: string;
  onFiles: (files: File[]) => void;
}) {
  const inputId = useId();
  const [over, setOver] = useState(false);

  const dragOver = (event: DragEvent<HTMLElement>) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setOver(false);
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      role="region"
      aria-label={`Upload to ${label}`}
      aria-describedby={describedBy}
      data-testid={`dropzone-${field.name}`}
      className={over ? 'dropzone over' : 'dropzone'}
      onDragEnter={dragOver}
      onDragOver={dragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        multiple={field.multi}
        accept={inputAccept(field)}
        aria-label={`Choose files for ${label}`}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Emptied so that choosing the same file again is a change too.
          event.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      <label htmlFor={inputId} className="dropzone-button">
        {field.multi ? 'Choose files' : 'Choose a file'}
      </label>
      <span className="dropzone-hint">{field.multi ? 'or drop files here' : 'or drop a file here'}</span>
    </div>
  );
}
