import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
});
