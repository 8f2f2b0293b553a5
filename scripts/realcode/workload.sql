-- The SQLite workload of scripts/realcode-run (sql_run): small enough for
-- callgrind, broad enough to reach the parser, the code generator, the
-- bytecode engine, the b-tree, sorting, windows, JSON, FTS5 and R-tree.
-- Nothing here may depend on time, addresses or randomness.
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL, grp INT, price REAL, tags TEXT);
CREATE INDEX item_grp ON item(grp, price);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO item(name, grp, price, tags)
  SELECT printf('item-%05d', i), i % 17, (i * 7919 % 1000) / 10.0,
         json_array(i % 3, 'g' || (i % 5), i % 2 = 0)
  FROM n;
SELECT count(*), sum(price), min(name), max(name) FROM item;
SELECT grp, count(*), round(avg(price), 3), group_concat(id % 10, '') FROM item
  WHERE price > 50 GROUP BY grp HAVING count(*) > 10 ORDER BY grp;
SELECT id, name, price, rank() OVER (PARTITION BY grp ORDER BY price DESC, id) AS r,
       sum(price) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
  FROM item WHERE id % 97 = 0 ORDER BY id;
SELECT json_extract(tags, '$[1]') AS g, count(*) FROM item GROUP BY g ORDER BY g;
SELECT json_group_array(json_object('id', id, 'p', price)) FROM item WHERE id < 6;
CREATE TABLE orders(oid INTEGER PRIMARY KEY, item INT REFERENCES item(id), qty INT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO orders(item, qty) SELECT (i * 31) % 3000 + 1, i % 9 + 1 FROM n;
SELECT i.grp, sum(o.qty * i.price) AS total FROM orders o JOIN item i ON i.id = o.item
  GROUP BY i.grp ORDER BY total DESC LIMIT 5;
SELECT name FROM item WHERE id IN (SELECT item FROM orders WHERE qty = 9) AND grp < 3
  ORDER BY name LIMIT 10;
SELECT count(*) FROM item i WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.item = i.id);
CREATE VIEW expensive AS SELECT * FROM item WHERE price >= 99;
SELECT id, upper(name), length(tags), substr(name, 6), replace(name, '0', '_') FROM expensive
  ORDER BY id LIMIT 8;
CREATE TABLE log(msg TEXT);
CREATE TRIGGER item_up AFTER UPDATE OF price ON item BEGIN
  INSERT INTO log VALUES (printf('%s: %.1f -> %.1f', old.name, old.price, new.price));
END;
BEGIN;
UPDATE item SET price = price * 1.5 WHERE grp = 4 AND id < 200;
DELETE FROM orders WHERE qty < 3;
COMMIT;
SELECT count(*), min(msg), max(msg) FROM log;
SELECT count(*), sum(qty) FROM orders;
INSERT INTO item(id, name, grp, price) VALUES (5, 'dup', 0, 1.0)
  ON CONFLICT(id) DO UPDATE SET name = excluded.name || '-' || item.name;
SELECT * FROM item WHERE id = 5;
SELECT abs(-3), round(pi(), 6), sqrt(2.0), power(2, 10), hex('kpath'), quote('it''s'),
       typeof(1), typeof(1.5), typeof('x'), typeof(NULL), typeof(x'00'),
       instr('realcode', 'code'), trim('  x  '), printf('%08.3f|%-5s|%x', 3.14159, 'ab', 255);
SELECT CASE WHEN id % 15 = 0 THEN 'fizzbuzz' WHEN id % 5 = 0 THEN 'buzz'
            WHEN id % 3 = 0 THEN 'fizz' ELSE id END FROM item WHERE id <= 15;
CREATE VIRTUAL TABLE doc USING fts5(body);
INSERT INTO doc(body) SELECT 'the ' || name || ' in group ' || grp || ' costs ' || price FROM item
  WHERE id % 10 = 0;
SELECT count(*) FROM doc WHERE doc MATCH 'group AND costs';
SELECT rowid, highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH '"item-00100"';
CREATE VIRTUAL TABLE box USING rtree(id, x0, x1, y0, y1);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 499)
INSERT INTO box SELECT i, i % 50, i % 50 + 2, i / 50, i / 50 + 3 FROM n;
SELECT count(*) FROM box WHERE x0 <= 10 AND x1 >= 8 AND y0 <= 4 AND y1 >= 2;
SELECT grp, total(price), count(DISTINCT tags) FROM item GROUP BY grp ORDER BY 2 DESC LIMIT 3;
WITH RECURSIVE fib(a, b, k) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, k + 1 FROM fib WHERE k < 60)
SELECT k, a FROM fib WHERE k % 10 = 0;
SELECT name, price, ntile(4) OVER w, lag(price) OVER w, lead(name, 2, '-') OVER w
  FROM item WHERE grp = 7 AND id < 400 WINDOW w AS (ORDER BY price, id);
PRAGMA integrity_check;
