import { Text, useStdout } from 'ink';
import { useActions, useConsole } from '../state/context.tsx';
import { terminalSize } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

/** Like a one-line text field: long text scrolls so the end being typed stays in view. */
export function visibleTail(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

/** The open prompt (a quote form value, the scenario file), which owns the keyboard while open. */
export function PromptLine() {
  const actions = useActions();
  const prompt = useConsole((s) => s.prompt);
  const { columns } = terminalSize(useStdout().stdout);
  useCommands('prompt', {
    // Printable keys go into the field; control sequences do not.
    onUnmatched: (input, key) => {
      if (input && !key.ctrl && !key.meta && !key.tab) actions.typePrompt(input);
    },
  });
  if (!prompt) return null;
  const label = `${prompt.title}: `;
  return (
    <Text>
      <Text color={theme.accent}>{label}</Text>
      {visibleTail(prompt.value, Math.max(10, columns - label.length - 2))}
      <Text color={theme.accent}>█</Text>
    </Text>
  );
}
