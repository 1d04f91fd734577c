import { Link } from 'react-router-dom';
// Values from the rules file only (no zod): the hub's chunk stays free of schemas.
import { yearsAgoText, type OnThisDayPicture } from '@site/contracts/pictures';
import { trpc } from '../../lib/trpc.ts';
import './hub.css';

function Tile({ picture }: { picture: OnThisDayPicture }) {
  const label = `${picture.caption || 'Picture'}, ${yearsAgoText(picture.yearsAgo)} (${picture.year})`;
  return (
    <li>
      <Link className="on-this-day-tile" to={picture.link} aria-label={`Open ${label}`}>
        {picture.thumb ? (
          <img src={picture.thumb} alt="" loading="lazy" decoding="async" width={120} height={120} />
        ) : (
          <span className="on-this-day-placeholder" aria-hidden="true">
            {picture.kind === 'video' ? '▶' : '🖼'}
          </span>
        )}
        <span className="on-this-day-year">{yearsAgoText(picture.yearsAgo)}</span>
      </Link>
    </li>
  );
}

/**
 * The hub's "On this day": pictures taken on today's date in earlier years (the server's date), each
 * opening the gallery's viewer on it. Not drawn at all while loading, on failure, or when there are none.
 */
export function OnThisDay() {
  const query = trpc.pictures.onThisDay.useQuery(undefined, { staleTime: 10 * 60_000 });
  const data = query.data;
  if (!data || data.pictures.length === 0) return null;
  const more = data.total - data.pictures.length;
  return (
    <section className="card hub-section" id="On this day" aria-labelledby="on-this-day-title" data-testid="on-this-day">
      <h2 id="on-this-day-title">On this day</h2>
      <ul className="on-this-day-list">
        {data.pictures.map((p) => (
          <Tile key={p.id} picture={p} />
        ))}
      </ul>
      {more > 0 && <p className="small">And {more} more from this day in the gallery.</p>}
    </section>
  );
}
