import { describe, it } from 'vitest';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { onboardingDecider } from './index.ts';
import { at, base, inProgress } from './test-fixtures.ts';

const given = DeciderSpecification.for(onboardingDecider);
const evidence = {
  ip: 'sealed-ip',
  user_agent: 'sealed-ua',
  answers_sha256: 'ab'.repeat(32),
  answers_version: 1,
};

describe('a signature records its evidence', () => {
  it('keeps the route’s evidence and adds the agreement text as the consent text', () => {
    given(...inProgress)
      .when({
        type: 'SignField',
        data: {
          field_id: 'sig',
          signature_id: 'sg1',
          signer_name: 'Ada',
          signer_email: 'ada@example.com',
          signer: { role: 'client', token_hash: 'hash-1' },
          evidence,
        },
        metadata: { now: at(4) },
      })
      .then([
        {
          type: 'signature.signed',
          data: {
            ...base,
            step_id: 's1',
            field_id: 'sig',
            signature_id: 'sg1',
            signer_name: 'Ada',
            signer_email: 'ada@example.com',
            signer_role: 'client',
            member_id: null,
            signed_at: at(4).toISOString(),
            evidence: { ...evidence, consent_text: 'I agree.' },
          },
        },
      ]);
  });
});
