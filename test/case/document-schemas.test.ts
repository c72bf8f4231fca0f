import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { billingSchema, exportSchema, quoteAnswerSchema, receiptSchema, runReadSchema } from '../../src/case/document-schemas.ts';

/** The case kit compiles these without checking them against the meta-schema (document-check.ts): this does, once. */
describe("the case kit's document schemas", () => {
  it('are valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020.default({ strict: false });
    for (const [name, schema] of Object.entries({ billingSchema, exportSchema, quoteAnswerSchema, receiptSchema, runReadSchema })) {
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
    }
    // The check itself catches a schema that breaks the meta-schema.
    expect(ajv.validateSchema({ ...receiptSchema, required: 'receipt' })).toBe(false);
  });
});
