import { useId, type ComponentProps, type CSSProperties, type Ref } from 'react';
import type { FileRecord } from '../../../api/uploads';
import { formatBytes } from '../../../components/ui';

export const isImage = (file: FileRecord) => file.mime_type.startsWith('image/');

/** The small picture of an image: its `thumb` variant when the field makes one (and it is made), else the file. */
export const thumbnailUrl = (file: FileRecord) => file.variants?.thumb?.url ?? file.url;

/** Reordering controls of an item of a multi field. */
export interface ItemMoves {
  /** The drag handle's attributes and listeners (dnd-kit). */
  handle: ComponentProps<'button'>;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
}

/** One file of a field: a thumbnail or the type, what it is, and what can be done with it. */
export function FileItem({
  file,
  moves,
  nodeRef,
  style,
  dragging,
  onDelete,
}: {
  file: FileRecord;
  moves?: ItemMoves;
  nodeRef?: Ref<HTMLLIElement>;
  style?: CSSProperties;
  dragging?: boolean;
  /** Absent when the signed-in account may not change the entity's files. */
  onDelete?: () => void;
}) {
  const nameId = useId();
  const name = file.original_name;
  return (
    <li
      ref={nodeRef}
      style={style}
      className={dragging ? 'file-item dragging' : 'file-item'}
      aria-labelledby={nameId}
      data-file-id={file.id}
    >
      {moves && (
        <button type="button" className="drag-handle" aria-label={`Reorder ${name}`} {...moves.handle}>
          <span aria-hidden="true">⠿</span>
        </button>
      )}
      {isImage(file) ? (
        <a className="file-preview" href={file.url} target="_blank" rel="noreferrer">
          <img src={thumbnailUrl(file)} alt={`Open ${name}`} loading="lazy" width={64} height={64} />
        </a>
      ) : (
        <span className="file-preview file-icon" aria-hidden="true">
          {extensionOf(file)}
        </span>
      )}
      <div className="file-info">
        <span className="file-name" id={nameId}>
          {name}
        </span>
        <span className="file-meta">
          {[file.mime_type, formatBytes(file.size), file.width && file.height ? `${file.width} × ${file.height}` : '']
            .filter(Boolean)
            .join(' · ')}
        </span>
        {!isImage(file) && (
          <a href={file.url} download={name}>
            Download
          </a>
        )}
      </div>
      <div className="file-actions">
        {moves && (
          <>
            <button type="button" className="small" data-move="up" disabled={!moves.onMoveUp} onClick={moves.onMoveUp}>
              Move up
            </button>
            <button
              type="button"
              className="small"
              data-move="down"
              disabled={!moves.onMoveDown}
              onClick={moves.onMoveDown}
            >
              Move down
            </button>
          </>
        )}
        {onDelete && (
          <button type="button" className="small danger-outline" onClick={onDelete}>
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

function extensionOf(file: FileRecord): string {
  const dot = file.original_name.lastIndexOf('.');
  const extension = dot > 0 ? file.original_name.slice(dot + 1) : file.mime_type.split('/')[1];
  return (extension ?? 'file').slice(0, 4).toUpperCase();
}
