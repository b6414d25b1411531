import { useId, useState } from 'react';
import type { FileRecord } from '../../../api/uploads';
import { unwrap } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { ErrorMessage } from '../../../components/ui';
import type { FileFieldRules } from '../../../content-types';
import type { Label } from '../entities/entity-schema';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { DropZone } from './drop-zone';
import { contentKey, useReorderFiles } from '../entities/entity-api';
import { FileItem } from './file-item';
import { acceptedTypesText, countText, maxSizeText } from './file-rules';
import { SortableFileList } from './sortable-file-list';
import { UploadList } from './uploads/upload-list';
import { useUploads } from './uploads/use-uploads';

/** One file field of an entity: its rules, its files, and, with `<type>:write`, uploads, reordering and deleting. */
export function FileFieldPanel({
  type,
  entityId,
  field,
  label,
  files,
}: {
  type: string;
  entityId: number;
  field: FileFieldRules;
  /** The field's title and description from the OpenAPI document. */
  label: Label;
  files: FileRecord[];
}) {
  const title = label.title;
  const headingId = useId();
  const rulesId = useId();
  const uploads = useUploads(type, entityId, field, files.length, title);
  const reorder = useReorderFiles(type, entityId, field.name);
  const api = useApi();
  const [deleting, setDeleting] = useState<FileRecord>();
  const mayWrite = usePermissions().may(`${type}:write`);

  const move = (file: FileRecord, to: number) => {
    const ids = files.map((candidate) => candidate.id).filter((id) => id !== file.id);
    ids.splice(to, 0, file.id);
    reorder.mutate(ids);
  };

  return (
    <section className="panel file-field" aria-labelledby={headingId}>
      <div className="file-field-header">
        <h2 id={headingId}>{title}</h2>
        <span className="badge">
          {field.multi ? `${files.length} ${files.length === 1 ? 'file' : 'files'}` : 'single'}
        </span>
      </div>
      {label.description && <p className="hint">{label.description}</p>}
      <FieldRules field={field} id={rulesId} />
      {mayWrite && <DropZone field={field} label={title} describedBy={rulesId} onFiles={uploads.upload} />}
      <UploadList label={`Uploads to ${title}`} items={uploads.items} onAction={uploads.control} />
      {uploads.problems.map((problem, index) => (
        <ErrorMessage key={`${index} ${problem}`} error={new Error(problem)} />
      ))}
      {reorder.isError && <ErrorMessage error={new Error(`The new order was not saved. ${reorder.error.message}`)} />}
      {files.length === 0 ? (
        <p className="hint">{mayWrite ? 'No file yet: choose one or drop it above.' : 'No file yet.'}</p>
      ) : !mayWrite ? (
        <ul className="file-list" aria-label={`Files of ${title}`}>
          {files.map((file) => (
            <FileItem key={file.id} file={file} />
          ))}
        </ul>
      ) : field.multi ? (
        <SortableFileList label={`Files of ${title}`} files={files} onMove={move} onDelete={setDeleting} />
      ) : (
        <ul className="file-list" aria-label={`File of ${title}`}>
          <FileItem file={files[0]} onDelete={() => setDeleting(files[0])} />
        </ul>
      )}
      <DeleteDialog
        title={`Delete ${deleting?.original_name ?? 'file'}?`}
        target={deleting}
        remove={({ id }) => unwrap(api.DELETE('/files/{id}', { params: { path: { id } } }))}
        refresh={contentKey(type)}
        onClose={() => setDeleting(undefined)}
      >
        <p>
          The file is removed from {title} for good
          {field.multi ? '; the files after it move up.' : '.'}
        </p>
      </DeleteDialog>
    </section>
  );
}

function FieldRules({ field, id }: { field: FileFieldRules; id: string }) {
  const refused = field.refused ?? [];
  return (
    <div id={id}>
      <dl className="file-rules">
        <div>
          <dt>Accepts</dt>
          <dd>{acceptedTypesText(field)}</dd>
        </div>
        <div>
          <dt>Max size</dt>
          <dd>{maxSizeText(field)}</dd>
        </div>
        <div>
          <dt>Max count</dt>
          <dd>{countText(field)}</dd>
        </div>
      </dl>
      {refused.length > 0 && (
        <details className="file-refused">
          <summary>Types never accepted ({refused.length})</summary>
          <p className="mono">{refused.join(', ')}</p>
        </details>
      )}
    </div>
  );
}
