import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RECIPE_SETTINGS } from '@site/contracts/recipes';
import { renderWithSite } from '../../test/render.tsx';
import { RecipeList } from './RecipeList.tsx';

const recipe = { recipe_id: 7, title: 'Pancakes', author: 'Gran', uploaded_date: '2026-11-01' };

function setup(level: number) {
  return renderWithSite(<RecipeList />, {
    path: '/personal/recipes',
    procedures: {
      'auth.status': () => ({ user: 'viewer', level }),
      'recipes.list': () => [recipe],
      'recipes.settings': () => DEFAULT_RECIPE_SETTINGS,
    },
  });
}

describe('RecipeList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives admins the authoring buttons', async () => {
    setup(3);
    await screen.findByRole('link', { name: 'Pancakes - Gran - 2026-11-01' });
    expect(await screen.findByRole('link', { name: 'New recipe' })).toBeTruthy();
    expect(screen.getByText('Import JSON-LD')).toBeTruthy();
  });

  it('shows a member who reads on port 8443 the list and settings, without buttons the server would refuse', async () => {
    setup(1);
    await screen.findByRole('link', { name: 'Pancakes - Gran - 2026-11-01' });
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New recipe' })).toBeNull();
    expect(screen.queryByText('Import JSON-LD')).toBeNull();
  });

  it('imports several files at once and shows what became of each', async () => {
    const sent: { url: string; files: number }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, files: (init.body as FormData).getAll('files').length });
      const report = [
        { file: 'buns.jsonld', ok: true, recipe_id: 9, title: 'Kanelbullar' },
        { file: 'box.zip/notes.json', ok: false, message: 'The recipe has no name' },
      ];
      return new Response(JSON.stringify({ report }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    setup(3);
    const input = await screen.findByLabelText('Import JSON-LD');
    fireEvent.change(input, { target: { files: [new File(['{}'], 'buns.jsonld'), new File(['PK'], 'box.zip')] } });
    await screen.findByText('1 imported, 1 refused');
    expect(sent).toEqual([{ url: '/private/recipes/import', files: 2 }]);
    expect(screen.getByRole('link', { name: 'Kanelbullar' }).getAttribute('href')).toBe('/personal/recipes/page/9');
    expect(screen.getByText(/refused: The recipe has no name/).textContent).toBe('box.zip/notes.json: refused: The recipe has no name');
  });

  it("counts a zip's README.txt as skipped, not refused", async () => {
    vi.stubGlobal('fetch', async () => {
      const report = [
        { file: 'box.zip/README.txt', ok: false, skipped: true, message: 'skipped: not a recipe file (.json, .jsonld or .html)' },
        { file: 'box.zip/buns.json', ok: true, recipe_id: 9, title: 'Kanelbullar' },
      ];
      return new Response(JSON.stringify({ report }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    setup(3);
    fireEvent.change(await screen.findByLabelText('Import JSON-LD'), { target: { files: [new File(['PK'], 'box.zip')] } });
    await screen.findByText('1 imported, 0 refused, 1 skipped');
    expect(screen.getByText(/README/).closest('li')?.textContent).toBe('box.zip/README.txt: skipped: not a recipe file (.json, .jsonld or .html)');
  });

  it('says a link is already imported: open it, or import it again as a copy', async () => {
    const calls: unknown[] = [];
    renderWithSite(<RecipeList />, {
      path: '/personal/recipes',
      procedures: {
        'auth.status': () => ({ user: 'owner', level: 3 }),
        'recipes.list': () => [recipe],
        'recipes.settings': () => DEFAULT_RECIPE_SETTINGS,
        'recipes.importUrl': (input) => {
          calls.push(input);
          return { recipe_id: 7, title: 'Pancakes', alreadyImported: (input as { copy?: boolean }).copy !== true };
        },
      },
    });
    fireEvent.change(await screen.findByLabelText('Import from link'), { target: { value: 'https://example.org/pancakes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('That page is already imported as “Pancakes”.');
    expect(screen.getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe('/personal/recipes/page/7');
    fireEvent.click(screen.getByRole('button', { name: 'Import again as a copy' }));
    await waitFor(() => expect(calls).toEqual([{ url: 'https://example.org/pancakes' }, { url: 'https://example.org/pancakes', copy: true }]));
  });
});
