import { sql, type Kysely, type Migration } from 'kysely';
import { KITCHEN_UNITS, plainText } from '@site/contracts';
import { decodeHTML } from 'entities';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The kitchen units the dictionary ships with. Adding units later takes a new migration calling
 * this again: existing abbreviations are left as they are.
 */
export async function insertKitchenUnits(db: Kysely<any>): Promise<void> {
  const rows = Object.entries(KITCHEN_UNITS).map(([abbreviation, unit]) => ({ abbreviation, ...unit }));
  await db.insertInto('recipe_units').values(rows).onConflict((oc) => oc.column('abbreviation').doNothing()).execute();
}

const tables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('recipes')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('foreword', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('servings', 'integer', (c) => c.check(sql`servings between 1 and 1000`))
      .addColumn('uploaded_date', 'text', (c) => c.notNull().defaultTo(sql`to_char(now(), 'YYYY-MM-DD')`))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('recipe_steps')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('recipe_id', 'integer', (c) => c.notNull().references('recipes.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('instructions', 'text', (c) => c.notNull())
      .addUniqueConstraint('recipe_steps_recipe_position', ['recipe_id', 'position'])
      .execute();
    await db.schema
      .createTable('recipe_ingredients')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('step_id', 'integer', (c) => c.notNull().references('recipe_steps.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('plural_name', 'text', (c) => c.notNull())
      .addColumn('quantity', 'double precision', (c) => c.check(sql`quantity >= 0`))
      .addColumn('unit_abbreviation', 'text')
      .addColumn('image', 'text')
      .execute();
    await db.schema.createIndex('recipe_ingredients_step').on('recipe_ingredients').column('step_id').execute();
    await db.schema
      .createTable('recipe_units')
      .addColumn('abbreviation', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('plural_name', 'text', (c) => c.notNull())
      .addColumn('size', 'double precision', (c) => c.notNull().check(sql`size > 0`))
      .addColumn('dimension', 'text', (c) => c.notNull().check(sql`dimension in ('volume', 'mass', 'count')`))
      .addColumn('system', 'text', (c) => c.notNull().check(sql`system in ('metric', 'us', 'any')`))
      .execute();
    await db.schema
      .createTable('recipe_settings')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('default_view', 'text', (c) => c.notNull())
      .addColumn('ingredient_view', 'text', (c) => c.notNull())
      .addColumn('measurement_system', 'text', (c) => c.notNull())
      .addColumn('improper_fractions', 'boolean', (c) => c.notNull())
      .addColumn('decimals', 'boolean', (c) => c.notNull())
      .execute();
    await insertKitchenUnits(db);
  },
  async down(db: Kysely<any>) {
    for (const table of ['recipe_settings', 'recipe_units', 'recipe_ingredients', 'recipe_steps', 'recipes']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

/** What imported recipes carry: yield ranges, times, section headings, amount ranges and ingredient notes. */
const importDetails: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('recipes')
      .addColumn('servings_max', 'integer', (c) => c.check(sql`servings_max between 1 and 1000`))
      .addColumn('prep_minutes', 'integer', (c) => c.check(sql`prep_minutes >= 1`))
      .addColumn('cook_minutes', 'integer', (c) => c.check(sql`cook_minutes >= 1`))
      .addColumn('total_minutes', 'integer', (c) => c.check(sql`total_minutes >= 1`))
      .execute();
    await db.schema.alterTable('recipe_steps').addColumn('section', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema
      .alterTable('recipe_ingredients')
      .addColumn('quantity_max', 'double precision', (c) => c.check(sql`quantity_max >= 0`))
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('recipe_ingredients').dropColumn('quantity_max').dropColumn('note').execute();
    await db.schema.alterTable('recipe_steps').dropColumn('section').execute();
    await db.schema.alterTable('recipes').dropColumn('servings_max').dropColumn('prep_minutes').dropColumn('cook_minutes').dropColumn('total_minutes').execute();
  },
};

/** Text that still carries HTML: an entity ('&deg;') or a tag ('<p>'). */
const HTML_LEFT = /&(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);|<\/?[a-z][^<>]*>/i;

/**
 * Recipes imported before the import decoded every entity show '75&deg;F' and '<p>': their text is
 * cleaned once, the way the import now reads it. Rows without HTML are left exactly as they are.
 */
const cleanImportedText: Migration = {
  async up(db: Kysely<any>) {
    const clean = (value: string, multiline: boolean) => {
      const text = plainText(value, decodeHTML);
      return multiline ? text : text.replace(/\s*\n\s*/g, ' ');
    };
    const tables = [
      ['recipes', ['title', 'author'], ['foreword']],
      ['recipe_steps', [], ['instructions']],
      ['recipe_ingredients', ['name', 'plural_name'], []],
    ] as const;
    for (const [table, singleLine, multiline] of tables) {
      const rows = await db.selectFrom(table).select(['id', ...singleLine, ...multiline]).execute();
      for (const row of rows as Record<string, unknown>[]) {
        const changes: Record<string, string> = {};
        for (const column of [...singleLine, ...multiline]) {
          const value = row[column];
          if (typeof value !== 'string' || !HTML_LEFT.test(value)) continue;
          const cleaned = clean(value, (multiline as readonly string[]).includes(column));
          // A field never ends up empty (titles, names and instructions may not be).
          if (cleaned !== '' && cleaned !== value) changes[column] = cleaned;
        }
        if (Object.keys(changes).length > 0) await db.updateTable(table).set(changes).where('id', '=', row.id).execute();
      }
    }
  },
  async down() {
    // The HTML is not put back.
  },
};

/** The link a recipe was imported from, so importing the same page again can say it is already there. */
const sourceUrl: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('recipes').addColumn('source_url', 'text').execute();
    await db.schema.createIndex('recipes_source_url').on('recipes').column('source_url').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('recipes_source_url').execute();
    await db.schema.alterTable('recipes').dropColumn('source_url').execute();
  },
};

export const recipesMigrations = {
  '20261123_recipes_tables': tables,
  '20261124_recipes_import_details': importDetails,
  '20261124_recipes_clean_text': cleanImportedText,
  '20261126_recipes_source_url': sourceUrl,
};
