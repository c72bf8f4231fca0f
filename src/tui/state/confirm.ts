import type { SliceContext } from './call.ts';
import type { ConfirmState, ConsoleActions } from './types.ts';

/** What each kind of question does on yes. */
export type ConfirmHandlers = { [K in ConfirmState['kind']]: (question: Extract<ConfirmState, { kind: K }>) => Promise<void> };

/** y/n questions before what cannot be undone: the answer runs the handler of the question's kind, or nothing. */
export function confirmActions({ set, get }: SliceContext, handlers: ConfirmHandlers): Pick<ConsoleActions, 'answerConfirm'> {
  return {
    async answerConfirm(yes) {
      const question = get().confirm;
      if (!question) return;
      set({ confirm: null });
      if (yes) await handlers[question.kind](question);
    },
  };
}
