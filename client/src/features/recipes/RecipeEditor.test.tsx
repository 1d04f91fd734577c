import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeTrpcError, renderWithSite } from '../../test/render.tsx';
import { RecipeEditorPage } from './RecipeEditor.tsx';

describe('RecipeEditor', () => {
  it("takes the server's message away once the form changes (a title typed after 'Title may not be empty')", async () => {
    renderWithSite(<RecipeEditorPage />, {
      path: '/personal/recipes/new',
      procedures: {
        'recipes.units': () => ({}),
        'recipes.create': () => {
          throw new FakeTrpcError('Title may not be empty');
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save recipe' }));
    await screen.findByText('Title may not be empty');
    await userEvent.type(screen.getByLabelText('Title'), 'Pancakes');
    expect(screen.queryByText('Title may not be empty')).toBeNull();
  });
});
