import type { SliceContext } from './call.ts';

/** A yes/no question about an action that cannot be undone; it owns the keyboard while open. */
export interface ConfirmState {
  kind: 'cancel-run';
  runId: string;
  question: string;
}

export interface ConfirmActions {
  answerConfirm(yes: boolean): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    confirm: ConfirmState | null;
  }
  interface ConsoleActions {
    confirm: ConfirmActions;
  }
}

/** What each kind of question does on yes. */
export type ConfirmHandlers = { [K in ConfirmState['kind']]: (question: Extract<ConfirmState, { kind: K }>) => Promise<void> };

/** y/n questions before what cannot be undone: the answer runs the handler of the question's kind, or nothing. */
export function confirmActions({ set, get }: SliceContext, handlers: ConfirmHandlers): ConfirmActions {
  return {
    async answerConfirm(yes) {
      const question = get().confirm;
      if (!question) return;
      set({ confirm: null });
      if (yes) await handlers[question.kind](question);
    },
  };
}
