import { useCallback, useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { SearchSuggestion } from '@site/contracts/pictures';
import { LoadProblem } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { PictureTile } from './media.tsx';
import { MemberViewer } from './MemberViewer.tsx';
import { useSettled } from '../../lib/use-settled.ts';

/** Suggestions wait for a pause in typing this long, and for this many characters. */
const SUGGEST_DELAY_MS = 150;
const SUGGEST_FROM = 2;

/**
 * The gallery's search box: a combobox (WAI-ARIA's pattern) whose list suggests places and dates
 * while typing. Enter searches (a search box is a one-field form whose Enter is its only button, so
 * it is a plain input rather than the site's TextInput, whose Enter asks for ctrl); arrows move in
 * the list, Enter on a suggestion searches it, Escape closes the list.
 */
export function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setText(initial), [initial]);
  const typed = useSettled(text.trim(), SUGGEST_DELAY_MS);
  const suggest = trpc.pictures.suggest.useQuery({ q: typed }, { enabled: open && typed.length >= SUGGEST_FROM, placeholderData: (previous) => previous });
  const suggestions: SearchSuggestion[] = open && typed.length >= SUGGEST_FROM ? (suggest.data?.suggestions ?? []) : [];
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  const run = (q: string) => {
    setText(q);
    setOpen(false);
    setActive(-1);
    onSearch(q.trim());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = suggestions[active];
    run(chosen ? chosen.query : text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && suggestions.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length > 0) {
      event.preventDefault();
      setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };
  const expanded = suggestions.length > 0;
  return (
    <form className="picture-search" role="search" onSubmit={submit}>
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search pictures
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        placeholder="Search: a person, a place, a tag, a year, a word"
        autoComplete="off"
        maxLength={200}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <button type="submit" className="button">
        Search
      </button>
      <ul id={listId} role="listbox" aria-label="Suggestions" className="search-suggestions" hidden={!expanded}>
        {suggestions.map((s, i) => (
          <li
            key={s.query}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Chosen on mouse down: a click's blur would close the list first.
            onMouseDown={(event) => {
              event.preventDefault();
              run(s.query);
            }}
          >
            <span>{s.label}</span>
            <span className="search-kind">{s.kind === 'place' ? 'Place' : s.kind === 'date' ? 'Date' : s.kind === 'person' ? 'Person' : 'Tag'}</span>
          </li>
        ))}
      </ul>
    </form>
  );
}

/** The pictures a search found, newest first, more on request; each opens in the gallery's viewer. */
export function SearchResults({ q, admin }: { q: string; admin: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  const results = trpc.pictures.search.useInfiniteQuery({ q }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  useEffect(() => setOpen(null), [q]);
  useEffect(() => {
    document.title = `Pictures - Search: ${q}`;
  }, [q]);
  const pictures = results.data?.pages.flatMap((p) => p.items) ?? [];
  // The words found nothing: the server searched the nearest names instead (a typo: "Sheldn").
  const didYouMean = results.data?.pages[0]?.didYouMean;
  const close = useCallback(() => setOpen(null), []);
  return (
    <section aria-label="Search results">
      <LoadProblem query={results} what="the search" />
      {results.data && (
        <p data-testid="search-count" aria-live="polite">
          {pictures.length === 0
            ? `Nothing found for “${q}”.`
            : didYouMean
              ? `Nothing found for “${q}”. Did you mean “${didYouMean}”? ${pictures.length}${results.hasNextPage ? '+' : ''} found for it`
              : `${pictures.length}${results.hasNextPage ? '+' : ''} found for “${q}”`}
        </p>
      )}
      <ul className="picture-grid" data-testid="search-grid">
        {pictures.map((picture, i) => (
          <li key={picture.id}>
            <PictureTile picture={picture} index={i} onOpen={() => setOpen(i)} />
          </li>
        ))}
      </ul>
      {results.hasNextPage && (
        <p>
          <button type="button" className="button" disabled={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()}>
            {results.isFetchingNextPage ? 'Loading…' : 'More results'}
          </button>
        </p>
      )}
      {open !== null && (
        <MemberViewer pictures={pictures} index={open} admin={admin} onMove={setOpen} onClose={close} />
      )}
    </section>
  );
}
