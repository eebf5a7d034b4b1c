-- Which posts' stored like tallies disagree with their counted likes?
--
-- The reconciliation of the reference-counter article, over rows already loaded: each post's
-- stored tally (PK = 'POST#…', SK = 'META', likeTally) beside the COUNT of its 'LIKE#…'
-- children, with a LEFT JOIN of parents to children (a post without likes counts 0) and a
-- GROUP BY. A missing tally (NULL) is drift too; drift = stored - counted.
--
-- Expects the table Social loaded whole as `social`:
--   app: Scan Social, Load all, name the tab `social`
--   CLI: dynoscope --sandbox sql --load social=Social "$(cat assets/sql/reconcile_likes.sql)"
SELECT p.PK                      AS post,
       p.likeTally               AS stored,
       COUNT(c.SK)               AS counted,
       p.likeTally - COUNT(c.SK) AS drift
FROM social AS p
LEFT JOIN social AS c
       ON c.PK = p.PK
      AND c.SK GLOB 'LIKE#*'     -- begins with LIKE#, case-sensitive like begins_with
WHERE p.SK = 'META'
  AND p.PK GLOB 'POST#*'
GROUP BY p.PK
HAVING p.likeTally IS NOT COUNT(c.SK)
ORDER BY p.PK;
