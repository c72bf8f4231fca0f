import type { SliceContext } from './call.ts';

/** A one-line text field that owns the keyboard while open (quote form values, the scenario path). */
export interface PromptState {
  title: string;
  value: string;
  target: { kind: 'quote-field'; row: number } | { kind: 'scenario-file' };
}

export interface PromptActions {
  typePrompt(text: string): void;
  erasePrompt(): void;
  cancelPrompt(): void;
  submitPrompt(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    prompt: PromptState | null;
  }
  interface ConsoleActions {
    prompt: PromptActions;
  }
}

/** The prompt line: typing, and handing the value to the slice that asked for it. */
export function promptActions({ set, get }: SliceContext): PromptActions {
  return {
    typePrompt(text) {
      const prompt = get().prompt;
      if (prompt) set({ prompt: { ...prompt, value: prompt.value + text } });
    },
    erasePrompt() {
      const prompt = get().prompt;
      if (prompt && prompt.value) set({ prompt: { ...prompt, value: prompt.value.slice(0, -1) } });
    },
    cancelPrompt() {
      set({ prompt: null });
    },
    async submitPrompt() {
      const prompt = get().prompt;
      if (!prompt) return;
      set({ prompt: null });
      if (prompt.target.kind === 'quote-field') get().actions.quote.setQuoteRowValue(prompt.target.row, prompt.value.trim());
      else await get().actions.scenario.openScenario(prompt.value.trim());
    },
  };
}
