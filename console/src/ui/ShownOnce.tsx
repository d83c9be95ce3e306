import { ReactNode, useState } from 'react';

/**
 * A secret the server shows this once (an API key, a webhook's signing secret), with a
 * button that copies it. Give it `key={value}`: a new secret starts uncopied.
 */
export function ShownOnce({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <p>{children}</p>
      <input aria-label={label} value={value} readOnly />
      <button
        type="button"
        onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
