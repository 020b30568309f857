/** How the page stays live: each region polls the admin API on its own timer. */
import { describe, notify, noticeShown } from './notice.js';

/**
 * Runs `task` now and then `ms` after each run ends (never two at once). A failure is shown (the
 * sandbox stopped, a token refused) and cleared by the next run that succeeds.
 */
export function every(ms: number, task: () => Promise<void>): void {
  let failure: string | undefined;
  const loop = async () => {
    try {
      await task();
      if (failure !== undefined && noticeShown() === failure) notify('');
      failure = undefined;
    } catch (error) {
      failure = describe(error);
      notify(failure);
    }
    setTimeout(() => void loop(), ms);
  };
  void loop();
}
