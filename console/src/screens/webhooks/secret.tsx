import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A signing secret, shown the one time the API answers with it (creation, rotation): selectable
 * text and a copy button. The secret lives only in the caller's state while this panel is up;
 * `onDismiss` must drop it there, so that nothing of it stays in the page, a store or the URL.
 */
export function SecretPanel({
  secret,
  onDismiss,
  children,
}: {
  secret: string;
  onDismiss: () => void;
  children?: ComponentChildren;
}) {
  const [copied, setCopied] = useState<'yes' | 'no'>();
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel takes the focus when it appears: it is what the operator must act on now.
  useEffect(() => heading.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      // No clipboard permission (an embedded frame, a policy): the text is still selectable.
      setCopied('no');
    }
  };

  return (
    <section class="secret-once" aria-labelledby="secret-title" data-testid="secret-panel">
      <h2 id="secret-title" tabIndex={-1} ref={heading}>
        Signing secret: shown this once
      </h2>
      <p>Copy it into your receiver now. It is not shown again: if it is lost, rotate the secret.</p>
      <div class="secret-row">
        <code class="secret" data-testid="secret" aria-label="Signing secret">
          {secret}
        </code>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <span role="status">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'no'
              ? 'The browser refused to copy: select the text and copy it.'
              : ''}
        </span>
      </div>
      {children}
      <button
        type="button"
        class="primary"
        onClick={() => {
          // The focused button goes with the panel: the keyboard's next Tab starts at the content.
          document.getElementById('main')?.focus();
          onDismiss();
        }}
      >
        I have stored it: hide the secret
      </button>
    </section>
  );
}
