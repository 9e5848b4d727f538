import { describe, expect, it } from 'vitest';
import { toJsonSchema2020 } from './openapi-3-1-schema.ts';

describe('toJsonSchema2020', () => {
  it('adds null to a nullable union', () => {
    expect(
      toJsonSchema2020({
        anyOf: [
          { type: 'integer', minimum: 0 },
          { type: 'string', enum: ['unlimited'] },
        ],
        nullable: true,
      }),
    ).toEqual({
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', enum: ['unlimited'] }, { type: 'null' }],
    });
  });

  it('adds null to the type and the values of a nullable enum', () => {
    expect(toJsonSchema2020({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
  });

  it('turns boolean exclusive bounds into numbers', () => {
    expect(toJsonSchema2020({ type: 'number', minimum: 0, exclusiveMinimum: true })).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
    });
    expect(toJsonSchema2020({ type: 'number', maximum: 5, exclusiveMaximum: false })).toEqual({
      type: 'number',
      maximum: 5,
    });
  });

  it('rewrites at every depth and leaves fields named nullable alone', () => {
    const nullableField = { type: 'boolean' };
    expect(
      toJsonSchema2020({
        type: 'object',
        properties: {
          nullable: nullableField,
          items: { type: 'array', items: { type: 'string', nullable: true } },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        nullable: nullableField,
        items: { type: 'array', items: { type: ['string', 'null'] } },
      },
    });
  });

  it('drops nullable without a type, which admits null already', () => {
    expect(toJsonSchema2020({ nullable: true, description: 'anything' })).toEqual({
      description: 'anything',
    });
  });
});
