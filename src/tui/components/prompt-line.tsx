import { Box, Text, useStdout } from 'ink';
import { useActions, useConsole } from '../state/context.tsx';
import { isWaitFutile } from '../state/waiting.ts';
import { terminalSize } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

/** Like a one-line text field: long text scrolls so the end being typed stays in view. */
export function visibleTail(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

/**
 * What owns the keyboard below the screen, when anything does: a Retry-After
 * being waited out, a yes/no question, or a one-line text field (a quote
 * form value, the scenario file).
 */
export function PromptLine() {
  const actions = useActions();
  const prompt = useConsole((s) => s.prompt);
  const { columns } = terminalSize(useStdout().stdout);
  useCommands('waiting');
  useCommands('confirm');
  useCommands('prompt', {
    // Printable keys go into the field; control sequences do not.
    onUnmatched: (input, key) => {
      if (input && !key.ctrl && !key.meta && !key.tab) actions.prompt.typePrompt(input);
    },
  });
  return (
    <>
      <WaitingLine />
      <ConfirmLine />
      {prompt ? (
        <Text>
          <Text color={theme.accent}>{prompt.title}: </Text>
          {visibleTail(prompt.value, Math.max(10, columns - prompt.title.length - 4))}
          <Text color={theme.accent}>█</Text>
        </Text>
      ) : null}
    </>
  );
}

function ConfirmLine() {
  const confirm = useConsole((s) => s.confirm);
  if (!confirm) return null;
  return (
    <Text color={theme.warn} bold>
      {confirm.question} <Text color={theme.muted}>y or ⏎ yes · n or esc no</Text>
    </Text>
  );
}

/**
 * The client waits out a Retry-After before retrying (spec 7); the console
 * says so, counting down, instead of sitting on "Accepting…". On a frozen
 * clock a run limit never frees by waiting, and the line says that too.
 */
function WaitingLine() {
  const waiting = useConsole((s) => s.waiting);
  const isFutile = useConsole(isWaitFutile);
  if (!waiting) return null;
  const left = Math.max(0, Math.ceil(waiting.delayMs / 1000) - waiting.elapsedSeconds);
  const { refusal } = waiting;
  return (
    <Box flexDirection="column">
      <Text color={theme.warn}>
        ⏳ {refusal.status ?? ''} {refusal.message}
      </Text>
      <Text>
        {left > 0 ? `Retrying ${waiting.what} in ${left} s` : `Retrying ${waiting.what} now…`}
        <Text color={theme.muted}>
          {' '}
          (Retry-After {Math.ceil(waiting.delayMs / 1000)} s, retry {waiting.retryIndex + 1}) · esc stops waiting
        </Text>
      </Text>
      {isFutile ? (
        <Text color={theme.warn}>
          The clock is frozen: waiting changes nothing, as runs only end when simulated time moves. Press &gt; to advance to the next event and retry now.
        </Text>
      ) : null}
    </Box>
  );
}
