-- Which send's completion has its signed PDF (projections/onboardings/fold.ts folds it from
-- onboarding_document_rendered, recorded in the transaction that stores the document). The
-- documents pass (services/onboardings/documents/documents-pass.ts) finds the completions
-- still without one through the partial index below, which holds only those: every few seconds
-- it read every completed onboarding of every team and probed its document (bench part 12).
alter table onboardings add column documented_send integer;
update onboardings o set documented_send = d.send_number
  from (select onboarding_id, max(send_number) as send_number from onboarding_documents group by onboarding_id) d
 where d.onboarding_id = o.id;
create index onboardings_document_due on onboardings (updated_at, id)
  where status = 'completed' and client_erased_at is null and documented_send is distinct from send_count;
