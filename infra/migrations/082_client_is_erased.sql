-- The one rule for "the client is erased", applied by every reader of the clients read
-- model: its erasure is recorded (erased_at), or its personal data can no longer be read
-- (the clients projection writes null into every personal field, email included, once the
-- client's key in personal_data_keys is gone). A single immutable expression, so the
-- planner inlines it into each query that calls it.
create function client_is_erased(erased_at timestamptz, email text) returns boolean
  language sql immutable parallel safe
  as $$ select erased_at is not null or email is null $$;
