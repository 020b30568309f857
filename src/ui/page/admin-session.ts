/**
 * The page's one admin API client, and the header form that asks for the admin token when the
 * sandbox refuses a call (README "Admin API"): every region calls through `api`.
 */
import { AdminApi } from './admin-api.js';
import { byId } from './dom.js';
import { fieldsOf } from './forms.js';
import { notify } from './notice.js';

let tokenEntered: ((token: string) => void) | undefined;

/** Asks for the admin token in the header's form; resolves with what is entered. */
function askToken(refused: boolean): Promise<string> {
  const form = byId<HTMLFormElement>('token-form');
  form.hidden = false;
  notify(refused ? 'That admin token was refused: enter the one the sandbox was started with.' : 'Enter the admin token.');
  byId('token').focus();
  return new Promise((resolve) => {
    tokenEntered = (token) => {
      form.hidden = true;
      notify('');
      resolve(token);
    };
  });
}

export const api = new AdminApi(askToken);

/** The token form's submit handler. */
export function useToken(event: Event): void {
  const token = fieldsOf(event).token;
  if (token !== undefined) tokenEntered?.(token);
}
