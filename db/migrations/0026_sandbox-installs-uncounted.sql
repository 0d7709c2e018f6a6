-- Decision 054: an installation on a developer's sandbox (the developer's own approved app, or
-- another developer's installed through OAuth) is not a marketplace install. The counter behind the
-- marketplace's popularity and install figures (apps.active_installs, kept by this trigger since
-- 0016) now leaves out installations whose business is a sandbox, as it leaves out test installs.
CREATE OR REPLACE FUNCTION installations_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d integer := 0;
  target text;
  on_sandbox boolean;
BEGIN
  SELECT b.is_sandbox INTO on_sandbox FROM businesses b
    WHERE b.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.business_id ELSE NEW.business_id END;
  IF coalesce(on_sandbox, false) THEN RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'ACTIVE' AND NOT OLD.is_test_install THEN d := d - 1; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'ACTIVE' AND NOT NEW.is_test_install THEN d := d + 1; END IF;
  target := CASE WHEN TG_OP = 'DELETE' THEN OLD.app_id ELSE NEW.app_id END;
  IF d <> 0 THEN UPDATE apps SET active_installs = active_installs + d WHERE id = target; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
UPDATE apps SET active_installs = (
  SELECT count(*) FROM installations i JOIN businesses b ON b.id = i.business_id
  WHERE i.app_id = apps.id AND i.status = 'ACTIVE' AND NOT i.is_test_install AND NOT b.is_sandbox
);
