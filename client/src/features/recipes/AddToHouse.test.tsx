import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECIPE_SETTINGS, KITCHEN_UNITS, type Ingredient } from '@site/contracts/recipes';
import { renderWithSite } from '../../test/render.tsx';
import { AddToHouse } from './AddToHouse.tsx';

const ingredient = (name: string, plural_name: string, quantity: number | null, unit_abbreviation: string | null): Ingredient => ({
  name,
  plural_name,
  quantity,
  quantity_max: null,
  note: '',
  unit_abbreviation,
  image: null,
});
const ingredients = [ingredient('egg', 'eggs', 2, null), ingredient('flour', 'flour', 200, 'g'), ingredient('salt', 'salt', null, null)];

function setup(level: number) {
  return renderWithSite(<AddToHouse ingredients={ingredients} settings={{ ...DEFAULT_RECIPE_SETTINGS, measurementSystem: 'metric' }} units={KITCHEN_UNITS} scale={{ servings: 6, baseServings: 4 }} />, {
    procedures: {
      'auth.status': () => ({ user: 'viewer', level }),
      'house.addIngredients': () => ({ added: 1, merged: 1 }),
    },
  });
}

describe('AddToHouse', () => {
  it('sends the ticked ingredients scaled to the servings, in the chosen system', async () => {
    const { calls } = setup(2);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Add to House To Get' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Add to House To Get' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'salt' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add 2 to House To Get' }));
    await screen.findByText(/1 new, 1 merged/);
    expect(calls.find((c) => c.path === 'house.addIngredients')?.input).toEqual({
      system: 'metric',
      lines: [
        { name: 'egg', pluralName: 'eggs', quantity: 3, unit: null },
        { name: 'flour', pluralName: 'flour', quantity: 300, unit: 'g' },
      ],
    });
  });

  it('explains itself to a member below level 2, who cannot add', async () => {
    setup(1);
    await screen.findByText('Adding to the House To Get list needs level 2 (Family).');
    expect((screen.getByRole('button', { name: 'Add to House To Get' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
