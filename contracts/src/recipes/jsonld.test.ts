import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationMinutes, ingredientLine, parseIngredientLine, plainText, recipeFromDocument, recipeFromJsonLd, recipeToJsonLd, splitSteps, yieldOf } from './jsonld.ts';
import { recipeInput, type Recipe } from './recipes.schemas.ts';
import { KITCHEN_UNITS } from './units.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const dict = KITCHEN_UNITS;

describe('recipeFromJsonLd', () => {
  it('imports a real schema.org Recipe from a page @graph, with sections, HTML entities and ingredient lines', () => {
    const result = recipeFromJsonLd(fixture('pancakes.jsonld'), dict);
    if (!result.ok) throw new Error(result.message);
    const recipe = recipeInput.parse(result.recipe);
    expect(recipe.title).toBe('Fluffy Pancakes');
    expect(recipe.author).toBe('Jane Doe');
    expect(recipe.foreword).toBe('Tall, fluffy pancakes for a lazy Sunday & the best maple syrup.');
    expect(recipe.servings).toBe(4);
    expect(recipe.steps).toHaveLength(4);
    expect(recipe.steps[0]?.instructions).toMatch(/^In a large bowl, sift together/);
    const all = recipe.steps.flatMap((s) => s.ingredients);
    expect(all.map((i) => [i.quantity, i.unit_abbreviation, i.name])).toEqual(
      expect.arrayContaining([
        [1.5, 'cup', 'all-purpose flour'],
        [3.5, 'tsp', 'baking powder'],
        [1, 'tbsp', 'white sugar'],
        [0.25, 'tsp', 'salt'],
        [1.25, 'cup', 'milk'],
        [1, null, 'egg'],
        [3, 'tbsp', 'butter, melted'],
        [null, null, 'maple syrup, to serve'],
      ]),
    );
    expect(all).toHaveLength(8);
    // Each ingredient goes with the first step that names it.
    expect(recipe.steps[0]?.ingredients.map((i) => i.name)).toEqual(['all-purpose flour', 'baking powder', 'white sugar', 'salt']);
    expect(recipe.steps[1]?.ingredients.map((i) => i.name)).toEqual(['milk', 'egg', 'butter, melted']);
    expect(recipe.steps[3]?.ingredients.map((i) => i.name)).toEqual(['maple syrup, to serve']);
  });

  it.each([
    ['broken-truncated.jsonld', /^The file is not JSON: /],
    ['broken-no-instructions.jsonld', /^The recipe has no recipeInstructions/],
  ])('names what is wrong in %s', (name, message) => {
    const result = recipeFromJsonLd(fixture(name), dict);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('says when there is no Recipe, or it has no name', () => {
    expect(recipeFromJsonLd('{"@type":"WebPage"}', dict)).toEqual({ ok: false, message: 'The file holds no schema.org Recipe (no object with "@type": "Recipe")' });
    expect(recipeFromJsonLd('[{"@type":"Recipe","recipeInstructions":"Stir."}]', dict)).toEqual({ ok: false, message: 'The recipe has no name' });
  });

  it('reads instructions written as one string, one step per line', () => {
    const result = recipeFromJsonLd(JSON.stringify({ '@type': 'Recipe', name: 'Tea', recipeInstructions: 'Boil water.\nPour.<br>Steep 3 minutes.' }), dict);
    expect(result.ok && result.recipe.steps.map((s) => s.instructions)).toEqual(['Boil water.', 'Pour.', 'Steep 3 minutes.']);
  });
});

describe('parseIngredientLine', () => {
  it.each([
    ['2 cloves garlic, minced', 2, 'clove', 'garlic, minced'],
    ['1 (14 oz) can tomatoes', 1, null, '(14 oz) can tomatoes'],
    ['500 g spaghetti', 500, 'g', 'spaghetti'],
    ['2 T olive oil', 2, 'tbsp', 'olive oil'],
    ['2 t cumin', 2, 'tsp', 'cumin'],
    ['1 pinch of salt', 1, 'pinch', 'salt'],
    ['2-3 lbs. potatoes', 2, 'lb', 'potatoes'],
    ['Salt and pepper', null, null, 'Salt and pepper'],
  ])('reads %j', (line, quantity, unit, name) => {
    const ingredient = parseIngredientLine(line, dict);
    expect([ingredient.quantity, ingredient.unit_abbreviation, ingredient.name]).toEqual([quantity, unit, name]);
  });
});

describe('reading what real pages write (issue 21 points 5 and 6)', () => {
  it.each([
    ['2 - 2 1/2 dl milk', 2, 2.5, 'dl', 'milk', ''],
    ['1-1/2 pounds ground beef', 1.5, null, 'lb', 'ground beef', ''],
    ['4 or 5 sprigs thyme', 4, 5, 'sprig', 'thyme', ''],
    ['1⁄4 cup sugar', 0.25, null, 'cup', 'sugar', ''],
    ['1 1⁄2 teaspoons cinnamon', 1.5, null, 'tsp', 'cinnamon', ''],
    ['1/2-1 tsp chili flakes', 0.5, 1, 'tsp', 'chili flakes', ''],
    ['1 to 2 tablespoons oil', 1, 2, 'tbsp', 'oil', ''],
    ['1 tomato', 1, null, null, 'tomato', ''],
    ['1 orange, zested', 1, null, null, 'orange, zested', ''],
    ['200g/7oz butter', 200, null, 'g', 'butter', '(7oz)'],
    ['1,5 dl grädde', 1.5, null, 'dl', 'grädde', ''],
    ['2 ⅓ cups mashed bananas', 7 / 3, null, 'cup', 'mashed bananas', ''],
  ])('reads %j', (line, quantity, max, unit, name, note) => {
    const ingredient = parseIngredientLine(line, dict);
    expect([ingredient.quantity, ingredient.quantity_max, ingredient.unit_abbreviation, ingredient.name, ingredient.note]).toEqual([quantity, max, unit, name, note]);
  });

  it('splits one block of text at line breaks, or at numbered sentences, and drops the numbers', () => {
    expect(splitSteps('1. Mix.\n2. Bake.')).toEqual(['Mix.', 'Bake.']);
    expect(splitSteps('1) Mix. 2) Bake 1.5 hours. 3) Serve.')).toEqual(['Mix.', 'Bake 1.5 hours.', 'Serve.']);
    expect(splitSteps('Step 1: Mix. Step 2: Bake.')).toEqual(['Mix.', 'Bake.']);
    expect(splitSteps('Preheat oven to 350. Mix 2 cups flour. Bake.')).toEqual(['Preheat oven to 350. Mix 2 cups flour. Bake.']);
  });

  it('reads ISO 8601 durations and yields in every shape', () => {
    expect([durationMinutes('PT1H30M'), durationMinutes('P0DT0H20M'), durationMinutes('PT0.5H'), durationMinutes('PT'), durationMinutes('1 hour 20 mins')]).toEqual([90, 20, 30, null, 80]);
    expect(yieldOf(4)).toEqual([4, null]);
    expect(yieldOf('8-10 servings')).toEqual([8, 10]);
    expect(yieldOf(['4', '4 servings'])).toEqual([4, null]);
    expect(yieldOf({ '@type': 'QuantitativeValue', value: 12, unitText: 'muffins' })).toEqual([12, null]);
    expect(yieldOf({ '@type': 'QuantitativeValue', minValue: 4, maxValue: 6 })).toEqual([4, 6]);
    expect(yieldOf('a loaf')).toEqual([null, null]);
  });

  it('takes tags out, decodes entities (twice encoded too), and drops invisible characters', () => {
    expect(plainText('<p>Mix &amp;amp; stir</p><p>Bake\u200b at 200&#176;C</p>')).toBe('Mix & stir\nBake at 200°C');
    expect(plainText('a&shy;b', (t) => t.replace('&shy;', '\u00ad'))).toBe('ab');
  });

  it('takes the recipe with instructions when a page also lists other recipes by name', () => {
    const page = [
      { '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', item: { '@type': 'Recipe', name: 'You may also like: scones' } }] },
      { '@graph': [{ '@type': 'WebPage', name: 'Jam' }, { '@type': 'Recipe', name: 'Strawberry jam', recipeInstructions: 'Boil fruit and sugar.' }] },
    ];
    const result = recipeFromDocument(page, dict);
    expect(result.ok && result.recipe.title).toBe('Strawberry jam');
  });

  it('keeps HowToSection names as headings before their first step, in nested arrays too', () => {
    const result = recipeFromDocument(
      {
        '@type': 'Recipe',
        name: 'Pie',
        recipeInstructions: [
          [{ '@type': 'HowToSection', name: 'Crust', itemListElement: [{ '@type': 'HowToStep', text: 'Rub in the butter.' }, { '@type': 'HowToStep', text: 'Chill.' }] }],
          { '@type': 'HowToSection', name: 'Filling', itemListElement: { '@type': 'ItemList', itemListElement: ['Slice apples.'] } },
        ],
      },
      dict,
    );
    expect(result.ok && result.recipe.steps.map((s) => [s.section, s.instructions])).toEqual([
      ['Crust', 'Rub in the butter.'],
      ['', 'Chill.'],
      ['Filling', 'Slice apples.'],
    ]);
  });
});

describe('recipeToJsonLd', () => {
  const recipe: Recipe = {
    recipe_id: 7,
    title: 'Garlic bread',
    author: 'Sam',
    foreword: 'Crunchy.',
    servings: 2,
    servings_max: null,
    prep_minutes: 10,
    cook_minutes: 75,
    total_minutes: null,
    uploaded_date: '2026-01-02',
    steps: {
      '1': {
        section: '',
        instructions: 'Mash the garlic into the butter.',
        ingredients: [
          { name: 'clove garlic', plural_name: 'cloves garlic', quantity: 3, quantity_max: null, note: '', unit_abbreviation: null, image: null },
          { name: 'butter', plural_name: 'butter', quantity: 0.5, quantity_max: null, note: '', unit_abbreviation: 'cup', image: null },
        ],
      },
      '2': {
        section: 'Baking',
        instructions: 'Spread on the bread and bake.',
        ingredients: [{ name: 'bread', plural_name: 'bread', quantity: null, quantity_max: null, note: '', unit_abbreviation: null, image: null }],
      },
    },
  };

  it('writes a schema.org Recipe that imports back to the same recipe', () => {
    const document = recipeToJsonLd(recipe);
    expect(document).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Recipe',
      name: 'Garlic bread',
      author: { '@type': 'Person', name: 'Sam' },
      description: 'Crunchy.',
      recipeYield: '2 servings',
      datePublished: '2026-01-02',
      recipeIngredient: ['3 cloves garlic', '1/2 cup butter', 'bread'],
      prepTime: 'PT10M',
      cookTime: 'PT1H15M',
    });
    const back = recipeFromJsonLd(JSON.stringify(document), dict);
    if (!back.ok) throw new Error(back.message);
    expect(back.recipe.title).toBe('Garlic bread');
    expect(back.recipe.steps.map((s) => [s.section, s.instructions])).toEqual([
      ['', 'Mash the garlic into the butter.'],
      ['Baking', 'Spread on the bread and bake.'],
    ]);
    expect([back.recipe.prep_minutes, back.recipe.cook_minutes, back.recipe.total_minutes]).toEqual([10, 75, null]);
    expect(back.recipe.steps.map((s) => s.ingredients?.map((i) => [i.quantity, i.unit_abbreviation]))).toEqual([
      [
        [3, 'clove'],
        [0.5, 'cup'],
      ],
      [[null, null]],
    ]);
  });

  it('property: any quantity and unit written by the export reads back the same', () => {
    const units = [null, ...Object.keys(dict)];
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e5, noNaN: true }), fc.constantFrom(...units), (q, unit) => {
        const quantity = Math.round(q * 1e4) / 1e4;
        const line = ingredientLine({ name: 'rice', plural_name: 'rice', quantity, unit_abbreviation: unit });
        const back = parseIngredientLine(line, dict);
        expect(back.unit_abbreviation).toBe(unit);
        expect(back.quantity).toBeCloseTo(quantity, 6);
        expect(back.name).toBe('rice');
      }),
    );
  });
});
