import { scrollCommands, selectCommands, type Command } from './command.ts';

/** The quote builder: the form, the quote, and confirming the acceptance (spec 4.3, 4.4). */
export const quoteCommands: Command[] = [
  // quote builder: the form
  ...selectCommands('quote-form', (actions, delta) => actions.quote.moveQuoteRow(delta), 'field'),
  { id: 'quote-form-next-choice', scope: 'quote-form', keys: [{ key: 'rightArrow' }, { input: 'l' }], label: '←→', helpKeys: '←→ h l', description: 'choice', run: ({ actions }) => actions.quote.cycleQuoteChoice(1) },
  { id: 'quote-form-previous-choice', scope: 'quote-form', keys: [{ key: 'leftArrow' }, { input: 'h' }], label: '←', description: 'previous choice', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.quote.cycleQuoteChoice(-1) },
  { id: 'quote-form-edit', scope: 'quote-form', keys: [{ key: 'return' }], label: '⏎', description: 'edit', run: ({ actions }) => actions.quote.editQuoteRow() },
  { id: 'quote-form-clear', scope: 'quote-form', keys: [{ input: 'x' }], label: 'x', description: 'omit', run: ({ actions }) => actions.quote.clearQuoteRow() },
  { id: 'quote-form-submit', scope: 'quote-form', keys: [{ input: 'q' }], label: 'q', description: 'get quote', run: ({ actions }) => void actions.quote.requestQuote() },
  { id: 'quote-form-back', scope: 'quote-form', keys: [{ key: 'escape' }], label: 'esc', description: 'back', run: ({ actions }) => actions.quote.backFromQuote() },

  // quote builder: the quote
  { id: 'quote-accept', scope: 'quote', keys: [{ input: 'a' }], label: 'a', description: 'accept', run: ({ actions }) => actions.quote.startAccept() },
  { id: 'quote-again', scope: 'quote', keys: [{ input: 'q' }], label: 'q', description: 'new quote', run: ({ actions }) => void actions.quote.requestQuote() },
  { id: 'quote-edit', scope: 'quote', keys: [{ input: 'e' }], label: 'e', description: 'edit inputs', run: ({ actions }) => actions.quote.openQuoteForm() },
  ...scrollCommands('quote', (actions, delta, max) => actions.quote.scrollQuote(delta, max)),
  { id: 'quote-back', scope: 'quote', keys: [{ key: 'escape' }], label: 'esc', description: 'back', run: ({ actions }) => actions.quote.backFromQuote() },

  // quote builder: confirming the acceptance
  { id: 'accept-confirm', scope: 'quote-confirm', keys: [{ input: 'y' }, { key: 'return' }], label: 'y', helpKeys: 'y ⏎', description: 'confirm accept', run: ({ actions }) => void actions.quote.confirmAccept() },
  { id: 'accept-cancel', scope: 'quote-confirm', keys: [{ input: 'n' }, { key: 'escape' }], label: 'n', helpKeys: 'n esc', description: 'do not accept', run: ({ actions }) => actions.quote.cancelAccept() },

];
