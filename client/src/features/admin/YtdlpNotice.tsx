import { YTDLP_FRESH_DAYS } from '@site/contracts/ytdl';
import { trpc } from '../../lib/trpc.ts';
import './ytdlp-notice.css';

/** The README's way (section "YT-DL (video downloads) needs yt-dlp and ffmpeg"). */
const CURRENT_YTDLP = `pipx install yt-dlp
# or: python3 -m pip install --user -U yt-dlp
YTDLP_PATH=$HOME/.local/bin/yt-dlp npm start`;

/**
 * Tells the owner when YT-DL's yt-dlp is missing or older than YTDLP_FRESH_DAYS (members see a notice
 * on the YT-DL page then), and how to run a current one. Nothing while it is fresh.
 */
export function YtdlpNotice() {
  const status = trpc.ytdl.status.useQuery(undefined, { staleTime: 60_000 });
  const data = status.data;
  if (!data || (data.version !== null && !data.outdated)) return null;
  return (
    <section className="card ytdlp-notice" aria-labelledby="ytdlp-notice-title">
      <h2 id="ytdlp-notice-title">{data.version === null ? 'YT-DL: yt-dlp is not installed' : 'YT-DL: yt-dlp is out of date'}</h2>
      {data.version === null ? (
        <p>
          YT-DL cannot download anything: the server found no yt-dlp at <code>{data.ytdlpPath}</code>. Install ffmpeg (
          <code>sudo apt-get install ffmpeg</code>) and a current yt-dlp, and point <code>YTDLP_PATH</code> at it:
        </p>
      ) : (
        <p>
          YT-DL downloads with yt-dlp {data.version}, released {data.released} ({data.ageDays} days ago). Video sites change often and a
          yt-dlp older than {YTDLP_FRESH_DAYS} days often fails on them, so members see a notice on the YT-DL page. Run a current yt-dlp
          and point <code>YTDLP_PATH</code> at it, then restart the site:
        </p>
      )}
      <pre className="ytdlp-command">
        <code>{CURRENT_YTDLP}</code>
      </pre>
      <p className="small">
        <code>YTDLP_PATH</code> is now <code>{data.ytdlpPath}</code>. When it already points at a pipx install, <code>pipx upgrade yt-dlp</code>{' '}
        brings it up to date. Recent releases also want a JavaScript runtime such as Deno for YouTube (see yt-dlp&apos;s README).
      </p>
    </section>
  );
}
