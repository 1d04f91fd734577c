/** What other areas may use of the house area: plan writes a week's To Get lines through it. */
export { addToGet, type ToGetLine } from './house.service.ts';
