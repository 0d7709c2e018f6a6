-- custom: privacy-answers (decision 048)
-- When a customer.redact delivery is over (SUCCEEDED or FAILED), the e-mail leaves its body (as since
-- 0020) and now also every answer and error recorded for its attempts: a receiver that echoes what it
-- got (or a developer's local server answering through `storefront-apps listen`) gave the address back,
-- and those rows are written after the erasure's scrub ran. Matched in any case.
CREATE OR REPLACE FUNCTION privacy_forget_redacted_email() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  email text;
  pattern text;
BEGIN
  email := NEW.body::jsonb #>> '{data,customerEmail}';
  IF email IS NOT NULL AND email <> '[erased]' THEN
    NEW.body := replace(NEW.body, to_json(email)::text, '"[erased]"');
    -- every character that is not a letter or digit is escaped: the address is matched literally
    pattern := regexp_replace(email, '([^[:alnum:]])', '\\\1', 'g');
    UPDATE webhook_attempts
      SET response_excerpt = regexp_replace(response_excerpt, pattern, '[erased]', 'gi'),
          error = regexp_replace(error, pattern, '[erased]', 'gi')
      WHERE delivery_id = NEW.id
        AND (strpos(lower(coalesce(response_excerpt, '')), lower(email)) > 0
          OR strpos(lower(coalesce(error, '')), lower(email)) > 0);
  END IF;
  RETURN NEW;
END $$;
