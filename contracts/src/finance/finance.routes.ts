import { defineArea } from '../area.ts';
import { financePages } from './finance.pages.ts';

const entryOutput = {
  charity_id: 'id',
  charitable: 'charitable',
  recipient: 'recipient',
  value: 'value',
  item: 'item',
  date: 'date',
  has_documentation: 'hasDocumentation',
} as const;

export const financeRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'finance.list': 3,
    'finance.overview': 3,
    'finance.add': 3,
    'finance.update': 3,
    'finance.remove': 3,
    'finance.documentation': 3,
    'finance.setDocumentation': 3,
    'finance.removeDocumentation': 3,
  },
  pages: financePages,
  http: {
    /** The documentation itself, for the viewer overlay: Content-Type from the bytes, a CSP without script. */
    'GET /private/finance/:id/documentation': { access: 3 },
    /** The page's upload of documentation (JSON with base64, larger than the general body limit allows). */
    'POST /private/finance/:id/documentation': { access: 3 },
    /** The page's save of an entry together with its documentation: both are saved, or neither. */
    'POST /private/finance/entries': { access: 3 },
    /** One year's entries as CSV. */
    'GET /private/finance/export/:year': { access: 3 },
  },
  api: {
    '/api/finance/get_charity': {
      procedure: 'finance.list',
      input: { year: { field: 'year', as: 'int' } },
      output: entryOutput,
    },
    '/api/finance/get_charity_documentation': {
      procedure: 'finance.documentation',
      input: { id: { field: 'id', as: 'int' } },
      output: { type: 'type', buffer: 'buffer' },
    },
    '/api/finance/set_charity_documentation': {
      procedure: 'finance.setDocumentation',
      input: { id: { field: 'id', as: 'int' }, file: 'file', fileType: 'fileType' },
      output: entryOutput,
    },
    '/api/finance/add_charity': {
      procedure: 'finance.add',
      input: {
        recipient: 'recipient',
        value: 'value',
        date: 'date',
        charitable: { field: 'charitable', as: 'boolean' },
        documentation: 'documentation',
        documentationType: 'documentationType',
        item: 'item',
      },
      output: entryOutput,
    },
  },
});
