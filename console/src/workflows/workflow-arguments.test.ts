import { describe, expect, it } from 'vitest';
import type { WorkflowArgument } from '../api/workflows';
import { argumentsOf } from './workflow-arguments';

const SUMMARY: WorkflowArgument[] = [
  { name: 'accountKey', type: 'integer', required: true },
  { name: 'from', type: 'datetime', required: true },
  { name: 'to', type: 'datetime', required: true },
  { name: 'minimum', type: 'decimal', required: false },
  { name: 'note', type: 'string', required: false },
  { name: 'draft', type: 'boolean', required: false },
];

describe('a workflow call from its form', () => {
  it('types each argument as the server takes it', () => {
    expect(
      argumentsOf(SUMMARY, {
        accountKey: ' 12 ',
        from: '2026-01-01T00:00',
        to: '2026-12-31T23:59:59',
        minimum: '10.005',
        note: ' as typed ',
        draft: true,
      }),
    ).toEqual({
      body: {
        accountKey: 12,
        from: '2026-01-01T00:00:00',
        to: '2026-12-31T23:59:59',
        minimum: '10.005',
        note: ' as typed ',
        draft: true,
      },
    });
  });

  it('leaves blank optional arguments out, a checkbox never', () => {
    expect(
      argumentsOf(SUMMARY, { accountKey: '1', from: '2026-01-01T00:00', to: '2026-01-02T00:00' }),
    ).toEqual({
      body: {
        accountKey: 1,
        from: '2026-01-01T00:00:00',
        to: '2026-01-02T00:00:00',
        draft: false,
      },
    });
  });

  it('says what is wrong, by argument', () => {
    expect(
      argumentsOf(SUMMARY, { accountKey: '1.5', from: '', to: 'soon', minimum: '1e2' }),
    ).toEqual({
      problems: {
        accountKey: 'Expected a whole number',
        from: 'Required',
        to: 'Expected a date and time',
        minimum: 'Expected a number such as 12.50',
      },
    });
  });
});
