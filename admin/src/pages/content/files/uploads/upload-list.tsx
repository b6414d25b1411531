import { statusText, type UploadItem } from './upload-state';

type Action = 'pause' | 'resume' | 'retry' | 'cancel';

/** The uploads under way to a field: each with its bar, what it is doing, its buttons and, when refused, why. */
export function UploadList({
  label,
  items,
  onAction,
}: {
  label: string;
  items: UploadItem[];
  onAction: (item: UploadItem, action: Action) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="upload-list" aria-label={label}>
      {items.map((item) => (
        <UploadRow key={item.id} item={item} onAction={(action) => onAction(item, action)} />
      ))}
    </ul>
  );
}

function UploadRow({ item, onAction }: { item: UploadItem; onAction: (action: Action) => void }) {
  const { name, status } = item;
  const button = (action: Action, text: string, className = 'small') => (
    <button type="button" className={className} aria-label={`${text} ${name}`} onClick={() => onAction(action)}>
      {text}
    </button>
  );
  return (
    <li className={`upload-item ${status}`}>
      <span className="upload-name">{name}</span>
      {status !== 'failed' && (
        <>
          <progress aria-label={`Uploading ${name}`} max={1} value={item.fraction} />
          <span className="upload-percent">{Math.floor(item.fraction * 100)}%</span>
        </>
      )}
      <span className="upload-actions">
        {status === 'uploading' && item.fraction < 1 && button('pause', 'Pause')}
        {status === 'paused' && button('resume', 'Resume')}
        {status === 'failed' && item.retryable && button('retry', 'Retry')}
        {(status === 'uploading' || status === 'paused') &&
          item.fraction < 1 &&
          button('cancel', 'Cancel', 'small danger-outline')}
        {status === 'failed' && button('cancel', 'Dismiss')}
      </span>
      <span className="upload-status" aria-live="polite">
        {statusText(item)}
      </span>
      {item.error && (
        <p className="message message-error" role="alert">
          {name} was not uploaded. {item.error}
        </p>
      )}
    </li>
  );
}
