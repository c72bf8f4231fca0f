import { Box, Text } from 'ink';
import { FAULT_ROWS, isFaultOn, type FaultRow } from '../state/faults.ts';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

const LABELS: Record<FaultRow['kind'], string> = {
  payments: 'payments disabled',
  researchProviderUnavailable: 'research provider unavailable',
  exportStorageUnavailable: 'export storage unavailable',
};

const EFFECTS: Record<FaultRow['kind'], string> = {
  payments: 'acceptance in that asset answers 503 (spec 4.5 check 4)',
  researchProviderUnavailable: 'runs starting now fail as platform failures, nothing charged',
  exportStorageUnavailable: 'export reads answer 503',
};

/** Screen 9: the fault switches of PUT /sim/faults. */
export function FaultsScreen() {
  useCommands('faults');
  const { faults, row } = useConsole((s) => s.faults);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  if (!controlAvailable) return <Text color={theme.muted}>Faults are set through the control API, which is hidden against a remote service.</Text>;
  if (!faults) return <Text color={theme.muted}>Reading faults…</Text>;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Faults </Text>
        <Text color={theme.muted}>PUT /sim/faults · space toggles</Text>
      </Text>
      {FAULT_ROWS.map((fault, index) => {
        const on = isFaultOn(faults, fault);
        const isSelected = index === row;
        const label = fault.kind === 'payments' ? `${LABELS.payments}: ${fault.profile}` : LABELS[fault.kind];
        return (
          <Text key={label}>
            <Text color={theme.accent}>{isSelected ? '› ' : '  '}</Text>
            <Text color={on ? theme.error : theme.ok} bold inverse={isSelected}>
              {on ? ' ON  ' : ' off '}
            </Text>
            <Text bold={isSelected}> {label.padEnd(38)}</Text>
          </Text>
        );
      })}
      <Text color={theme.muted}>{EFFECTS[FAULT_ROWS[row].kind]}</Text>
    </Box>
  );
}
