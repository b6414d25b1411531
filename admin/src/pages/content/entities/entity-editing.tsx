import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog, ErrorMessage, FormActions } from '../../../components/ui';
import type { AttachmentTypeInfo } from '../../../content-types';
import { displayNameOf, type Entity } from './entity-api';
import { EntityForm } from './entity-form';
import type { EntitySchema } from './entity-schema';
import { bodyOf, useCreateEntity, useUpdateEntity, valuesOf } from './entity-writes';

/** "Add product": the create body's fields; once created, the new entity's page, where its files go. */
export function CreateEntityDialog({
  info,
  schema,
  noun,
  open,
  onClose,
}: {
  info: AttachmentTypeInfo;
  schema: EntitySchema;
  /** The type in words, e.g. "product". */
  noun: string;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog title={`Add ${noun}`} open={open} onClose={onClose}>
      {open && <CreateEntity info={info} schema={schema} onClose={onClose} />}
    </Dialog>
  );
}

function CreateEntity({
  info,
  schema,
  onClose,
}: {
  info: AttachmentTypeInfo;
  schema: EntitySchema;
  onClose: () => void;
}) {
  const create = useCreateEntity(info);
  const navigate = useNavigate();
  if (schema.create.length === 0) return <NoForm onClose={onClose} />;
  const submit = (values: Record<string, string | boolean>) =>
    create.mutate(bodyOf(schema.create, values), {
      onSuccess: (entity) => {
        onClose();
        void navigate(`/content/${info.attachment_type}/${entity.id}`);
      },
    });
  return (
    <EntityForm fields={schema.create} initial={valuesOf(schema.create)} error={create.error} onSubmit={submit}>
      {() => <FormActions busy={create.isPending} busyLabel="Creating…" submit="Create" onCancel={onClose} />}
    </EntityForm>
  );
}

/** The entity's own properties: a form with `<type>:write`, else what they hold. */
export function EntityDetailsPanel({
  info,
  schema,
  entity,
  mayWrite,
}: {
  info: AttachmentTypeInfo;
  schema: EntitySchema;
  entity: Entity;
  mayWrite: boolean;
}) {
  const headingId = useId();
  return (
    <section className="panel entity-details" aria-labelledby={headingId}>
      <h2 id={headingId}>Details</h2>
      {mayWrite ? (
        <EditEntity info={info} schema={schema} entity={entity} />
      ) : (
        <dl className="file-rules">
          {schema.update.map((field) => (
            <div key={field.name}>
              <dt>{field.title}</dt>
              <dd>{textOf(entity[field.name])}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function EditEntity({ info, schema, entity }: { info: AttachmentTypeInfo; schema: EntitySchema; entity: Entity }) {
  const save = useUpdateEntity(info, entity.id);
  // What the form was filled with: a save sends only what differs from it, and then starts from what was saved.
  const [before, setBefore] = useState(() => valuesOf(schema.update, entity));
  const [generation, setGeneration] = useState(0);
  if (schema.update.length === 0) return <NoForm />;
  const submit = (values: Record<string, string | boolean>) => {
    const body = bodyOf(schema.update, values, before);
    if (Object.keys(body).length === 0) return;
    save.mutate(body, {
      onSuccess: (saved) => {
        setBefore(valuesOf(schema.update, saved));
        setGeneration((count) => count + 1);
      },
    });
  };
  return (
    <EntityForm key={generation} fields={schema.update} initial={before} error={save.error} onSubmit={submit}>
      {(values) => {
        const changed = schema.update.some((field) => values[field.name] !== before[field.name]);
        return (
          <div className="entity-form-actions">
            <button type="submit" className="primary" disabled={save.isPending || !changed}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            <span role="status" className="hint">
              {save.isSuccess && !changed ? `Saved ${displayNameOf(save.data, 'it')}.` : ''}
            </span>
          </div>
        );
      }}
    </EntityForm>
  );
}

function NoForm({ onClose }: { onClose?: () => void }) {
  return (
    <>
      <ErrorMessage error={new Error('The service’s API description has no form for this type.')} />
      {onClose && (
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </>
  );
}

const textOf = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) || '—' : '—';
