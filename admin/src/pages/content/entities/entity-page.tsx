import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DeleteDialog } from '../../../components/delete-dialog';
import { ErrorMessage, PageHeader, Progress, formatDate } from '../../../components/ui';
import { singularLabel, type AttachmentTypeInfo } from '../../../content-types';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { EntityDetailsPanel } from './entity-editing';
import { contentKey, displayNameOf, filesOf, useEntity, type Entity } from './entity-api';
import type { EntitySchema } from './entity-schema';
import { removeEntity } from './entity-writes';
import { FileFieldPanel } from '../files/file-field-panel';

/** One entity: a header with "Delete <type>", its own properties, then its file fields. */
export function EntityPage({ info, schema, id }: { info: AttachmentTypeInfo; schema: EntitySchema; id: number }) {
  const type = info.attachment_type;
  const entity = useEntity(info, id);
  const api = useApi();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<Entity>();
  // Changes are offered only with <type>:write: wait for the permissions too, so that they do not flicker.
  const { me, may } = usePermissions();
  if (entity.isPending || me.isPending) return <Progress label="Loading…" />;
  if (entity.isError) return <ErrorMessage error={entity.error} />;
  const mayWrite = may(`${type}:write`);
  const name = displayNameOf(entity.data, singularLabel(type));
  const updated = typeof entity.data.updated_at === 'string' ? entity.data.updated_at : undefined;
  return (
    <>
      <PageHeader title={name}>
        {mayWrite && (
          <button type="button" className="danger" onClick={() => setDeleting(entity.data)}>
            Delete {singularLabel(type).toLowerCase()}
          </button>
        )}
      </PageHeader>
      <p className="entity-meta">
        {singularLabel(type)} <span className="mono">{id}</span>
        {updated && ` · updated ${formatDate(updated)}`}
      </p>
      <EntityDetailsPanel info={info} schema={schema} entity={entity.data} mayWrite={mayWrite} />
      {info.fields.map((field) => (
        <FileFieldPanel
          key={field.name}
          type={type}
          entityId={id}
          field={field}
          label={schema.labels[field.name]}
          files={filesOf(entity.data, field.name)}
        />
      ))}
      <DeleteDialog
        title={`Delete ${name}?`}
        target={deleting}
        remove={(target) => removeEntity(api, info, target.id)}
        // Away first, so that the page does not ask for the entity once it is gone.
        onDeleted={() => navigate(`/content/${type}`)}
        refresh={contentKey(type)}
        onClose={() => setDeleting(undefined)}
      >
        <p>The {singularLabel(type).toLowerCase()} and all its files are removed for good.</p>
      </DeleteDialog>
    </>
  );
}
