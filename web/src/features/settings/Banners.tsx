/** The settings page's success and error lines. */
export function Banners({ ok, err }: { ok: string | null; err: string | null }) {
  return (
    <>
      {ok && (
        <div className="success-bar" role="status">
          {ok}
        </div>
      )}
      {err && (
        <div className="error-bar" role="alert">
          {err}
        </div>
      )}
    </>
  );
}
