-- Every personal-data key is stored sealed with a key-encryption key kept outside the
-- database (PERSONAL_DATA_KEK, shared/privacy/key-encryption-key.ts): `key` holds iv, auth
-- tag and the sealed key, `kek_id` names the KEK that sealed it, so a rotation knows which
-- keys still need re-wrapping. A key without kek_id is a plain key from before; the
-- service wraps those at its start (shared/privacy/rewrap-data-keys.ts).
alter table personal_data_keys add column kek_id text;
