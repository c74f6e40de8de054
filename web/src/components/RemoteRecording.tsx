/**
 * A link's recording on another site. The page never fetches it (its policy is connect-src
 * 'self', so nothing of a recording can be sent anywhere): this names the host and offers the
 * file as a plain download, for the user to drop here.
 */
interface Props {
  host: string;
  href: string;
  onCancel: () => void;
}

export function RemoteRecording({ host, href, onCancel }: Props) {
  return (
    <section className="remote" role="dialog" aria-label="Recording on another site">
      <h2>
        Open the recording from <bdi>{host}</bdi>?
      </h2>
      <p>
        This link names a recording at <bdi className="remote-href">{href}</bdi>. Its bytes are fetched by your browser; nothing is sent back.
      </p>
      <p>
        This site’s security policy allows only same-origin fetches, so that nothing of a recording can leave your machine: the page
        will not fetch from <bdi>{host}</bdi> itself. Download the file from there, then drop it here (or use Open recording); the link’s
        view is applied to it.
      </p>
      <div className="remote-actions">
        <a className="button" href={href} target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer">
          Download from {host}
        </a>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
