import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLayoutEffect, useRef, useState } from 'react';
import type { FileRecord } from '../../../api/uploads';
import { FileItem } from './file-item';

/**
 * The files of a multi field in their order, reordered by dragging a file's handle (pointer, or keyboard: Space,
 * arrows, Space) or with its "Move up" / "Move down" buttons. `onMove` gets the file and its new index.
 */
export function SortableFileList({
  label,
  files,
  onMove,
  onDelete,
}: {
  label: string;
  files: FileRecord[];
  onMove: (file: FileRecord, to: number) => void;
  onDelete: (file: FileRecord) => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const list = useRef<HTMLUListElement>(null);
  const [refocus, setRefocus] = useState<{ id: number; to: number; button: 'up' | 'down' }>();
  const [announcement, setAnnouncement] = useState('');
  const ids = files.map((file) => file.id);
  const nameOf = (id: UniqueIdentifier) => files.find((file) => file.id === id)?.original_name ?? 'The file';
  const positionOf = (id: UniqueIdentifier | undefined) => `position ${ids.indexOf(Number(id)) + 1} of ${ids.length}`;

  // Moving a file moves its DOM node, which loses the focus: once the file is at its new place, its button (or its
  // other one, at either end) gets the focus back.
  useLayoutEffect(() => {
    if (!refocus || ids.indexOf(refocus.id) !== refocus.to) return;
    const item = list.current?.querySelector(`[data-file-id="${refocus.id}"]`);
    const pick = (button: string) => item?.querySelector<HTMLButtonElement>(`button[data-move="${button}"]`);
    const wanted = pick(refocus.button);
    (wanted && !wanted.disabled ? wanted : pick(refocus.button === 'up' ? 'down' : 'up'))?.focus();
    setRefocus(undefined);
  }, [refocus, ids]);

  const move = (file: FileRecord, to: number, button?: 'up' | 'down') => {
    onMove(file, to);
    setAnnouncement(`${file.original_name} moved to position ${to + 1} of ${files.length}.`);
    setRefocus(button && { id: file.id, to, button });
  };

  const dragEnd = ({ active, over }: DragEndEvent) => {
    const file = files.find((candidate) => candidate.id === active.id);
    setRefocus(undefined);
    if (file && over && active.id !== over.id) onMove(file, ids.indexOf(Number(over.id)));
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, ${positionOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is over ${positionOf(over.id)}.` : undefined),
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} dropped at ${positionOf(over.id)}.` : `${nameOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Reordering cancelled: ${nameOf(active.id)} went back.`,
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={dragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'To reorder, press Space or Enter to pick the file up, the arrow keys to move it, Space or Enter to ' +
            'drop it, Escape to cancel. The Move up and Move down buttons do the same.',
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className="file-list" aria-label={label} ref={list}>
          {files.map((file, index) => (
            <SortableFileItem
              key={file.id}
              file={file}
              onMoveUp={index > 0 ? () => move(file, index - 1, 'up') : undefined}
              onMoveDown={index < files.length - 1 ? () => move(file, index + 1, 'down') : undefined}
              onDelete={() => onDelete(file)}
            />
          ))}
        </ul>
      </SortableContext>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </DndContext>
  );
}

function SortableFileItem({
  file,
  onMoveUp,
  onMoveDown,
  onDelete,
}: {
  file: FileRecord;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  onDelete: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: file.id,
  });
  return (
    <FileItem
      file={file}
      nodeRef={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      dragging={isDragging}
      moves={{ handle: { ...attributes, ...listeners, ref: setActivatorNodeRef }, onMoveUp, onMoveDown }}
      onDelete={onDelete}
    />
  );
}
