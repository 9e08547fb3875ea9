-- Organization roles (owner, admin, member): every organization keeps at least one owner. Organizations made before
-- roles had none; their earliest admin (or, failing one, their earliest member) becomes the owner.
UPDATE "memberships" SET "role" = 'owner'
WHERE "id" IN (
  SELECT MIN(m."id") FROM "memberships" m
  WHERE NOT EXISTS (SELECT 1 FROM "memberships" o WHERE o."organization_id" = m."organization_id" AND o."role" = 'owner')
    AND (m."role" = 'admin'
      OR NOT EXISTS (SELECT 1 FROM "memberships" a WHERE a."organization_id" = m."organization_id" AND a."role" = 'admin'))
  GROUP BY m."organization_id"
);
