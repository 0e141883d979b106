/**
 * @jest-environment node
 *
 * messageFor: a subject's own wording first, then the code's, then "unexpected" — never a key of
 * Object.prototype — and the client words its errors from the same table.
 */
import { API_ERROR_MESSAGES } from '@/lib/api-types/errors';
import { clientError, messageFor as clientMessageFor } from './client';
import { ERROR_MESSAGES, messageFor } from './messages';

it("words a code in its subject's wording when the subject has one, else the code's", () => {
  expect(messageFor('network', 'catalog')).toBe(ERROR_MESSAGES['catalog.network']);
  expect(messageFor('network', 'catalog')).not.toBe(ERROR_MESSAGES.network);
  expect(messageFor('no_token', 'catalog')).toBe(ERROR_MESSAGES.no_token);
  expect(messageFor('game_not_found')).toBe(API_ERROR_MESSAGES.game_not_found);
});

it('words an unknown code, or a key of Object.prototype, as unexpected', () => {
  expect(messageFor('no_such_code')).toBe(ERROR_MESSAGES.unexpected);
  expect(messageFor('constructor')).toBe(ERROR_MESSAGES.unexpected);
  expect(messageFor('toString', 'image')).toBe(ERROR_MESSAGES.unexpected);
});

it("is the client's table: its errors carry these words", () => {
  expect(clientMessageFor).toBe(messageFor);
  expect(clientError('timeout', 'image').userMessage).toBe(ERROR_MESSAGES['image.timeout']);
});
