import type { Key } from 'ink';
import type { Client } from '../../client/index.ts';

/** Where the service runs: test rehearses, production refuses what production refuses (spec 2.2, 4, 4.10). */
export type Environment = 'test' | 'production';

/** A key the console can use: the Key screen shows its secret so curl can use it beside the console. */
export interface ConsoleKeyChoice {
  /** 'demo local_custody', 'console', or what --key was. */
  name: string;
  profile: string;
  /** Its account, for the control API's reads (balances, ledger); null against a remote service. */
  accountId: string | null;
  secret: string;
  client: Client;
}

/** Where the console's requests go, shown on the Key screen so curl can follow along. */
export interface ConsoleService {
  url: string;
  /** The control token /sim requests carry; null when the control API needs none. */
  controlToken: string | null;
  /** The simulator runs inside the console (quitting stops it). */
  isEmbedded: boolean;
}

/** Screens are state: the console shows whatever `screen` names. */
export type Screen = 'home' | 'catalog' | 'filters' | 'agent' | 'quote' | 'run' | 'ledger' | 'monitors' | 'notifications' | 'inbox' | 'requests' | 'faults' | 'scenario' | 'report';

/** What the console shows for a failed call: the spec's code and message (part 7), and what it means. */
export interface DisplayError {
  code: string;
  message: string;
  status: number | null;
  /** The next thing to do, when the console knows (src/tui/refusals.ts). */
  meaning?: string | null;
}

/** A key press as Ink reports it, kept while a screen loads. */
export interface HeldKey {
  input: string;
  key: Key;
}
