import type { Tag } from '../decisions.ts';
import type { Difference } from '../difference.ts';
import type { AnswerKind } from '../spec-fields.ts';
import type { Exchange, ProbeRequest } from '../wire.ts';

export type Side = 'service' | 'simulator';

/** The kinds of request the plan counts; every one is free (spec 2.7, 4.5). */
export type ProbeKind = 'read' | 'keyless read' | 'quote creation' | 'refused acceptance' | 'refused monitor creation';

export type Rail = 'custody' | 'solana-custody';

/** What a side has shown so far that later probes build on: its own catalog, its own quote. */
export interface SideContext {
  side: Side;
  /** An id that exists nowhere (the same on both sides). */
  unknownId: string;
  /** svc_test_ key: state-changing probes are skipped. */
  testEnvironment: boolean;
  key?: { profile: string; assetId?: string; scopes: string[]; rail: Rail; otherRail: Rail };
  /** The token research agent (spec 3.4: the one offering canonical_metadata) and its chains. */
  tokenResearch?: { listingId: string; chains: string[] };
  /** Another listing accepting the key's currency (canonical_metadata is refused for it). */
  otherAgent?: { listingId: string };
  quote?: { id: string; contractHash: string };
  /** The cursor walk's next cursor: undefined before the first page, null after the last. */
  cursor?: string | null;
}

/** Who answers for the message of a refusal: a fixed tag, or one decided by both messages. */
export type MessageTag = Tag | ((service: string, simulator: string) => Tag);

/** What the spec states about a probe's answer. */
export interface Expectation {
  status: Tag;
  code?: Tag;
  message?: MessageTag;
  /** The shape of a success answer (errors use the error body of 2.16). */
  answer?: AnswerKind;
}

export interface ProbeDef {
  id: string;
  title: string;
  kind: ProbeKind;
  expect: Expectation;
  /** The request on one side, built from that side's own context; or why it is not sent there. */
  request(ctx: SideContext): ProbeRequest | { skip: string };
  /** What the answer teaches the side's context (a listing, a quote, a cursor). */
  learn?(ctx: SideContext, answer: Exchange): void;
  /** Spec relations inside one side's answer (a quote's fee split ...): each broken one, in words. */
  relations?(answer: Exchange): string[];
  /** A comparison of its own (the description), instead of the shape of fields. */
  compare?(service: Exchange, simulator: Exchange): Difference[];
}

/** Spec 4: a JSON answer body's object, or undefined. */
export const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
