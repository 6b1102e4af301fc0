-- An nsys SQLite export's GPU metrics, built to a known truth (the tables
-- and columns of `nsys export --type sqlite`; no recorded export exists):
-- GPU 0 (typeId 1280): 1000 samples at 10 kHz of each metric; SM Active
--   cycles 0..99 (mean 49.5, p50 49, p95 94, max 99), DRAM read 80 % and
--   write 10 % of the peak: memory bandwidth, not compute;
-- GPU 1 (typeId 1281): 500 samples; SM Active 90 %: compute;
-- samples before the capture's start (negative times, SM Active 100),
-- a metric without a name, and a name listed twice, none of which may
-- count.
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL,
  sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,
  metricId INTEGER NOT NULL, metricName TEXT NOT NULL);
CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL,
  metricId INTEGER NOT NULL, value INTEGER NOT NULL);
CREATE TABLE META_DATA_CAPTURE (name TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL);
INSERT INTO META_DATA_CAPTURE VALUES
  ('GPU_METRICS_OPTIONS:SAMPLING_FREQUENCY', '10000');
INSERT INTO TARGET_INFO_GPU_METRICS VALUES
  (1280, 0, 'GH100', 0, 'SM Active [Throughput %]'),
  (1280, 0, 'GH100', 0, 'SM Active [Throughput %]'),
  (1280, 0, 'GH100', 1, 'DRAM Read Bandwidth [Throughput %]'),
  (1280, 0, 'GH100', 2, 'DRAM Write Bandwidth [Throughput %]'),
  (1280, 0, 'GH100', 3, 'GPC Clock Frequency [MHz]'),
  (1281, 1, 'GH100', 0, 'SM Active [Throughput %]'),
  (1281, 1, 'GH100', 1, 'DRAM Read Bandwidth [Throughput %]'),
  (1281, 1, 'GH100', 2, 'DRAM Write Bandwidth [Throughput %]'),
  (1281, 1, 'GH100', 3, 'GPC Clock Frequency [MHz]');
WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x < 999)
INSERT INTO GPU_METRICS
  SELECT x * 100000, 1280, 0, x % 100 FROM i UNION ALL
  SELECT x * 100000, 1280, 1, 80 FROM i UNION ALL
  SELECT x * 100000, 1280, 2, 10 FROM i UNION ALL
  SELECT x * 100000, 1280, 3, 1980 FROM i UNION ALL
  SELECT x * 100000, 1280, 7, 55 FROM i WHERE x < 10 UNION ALL
  SELECT -100000 * (x + 1), 1280, 0, 100 FROM i WHERE x < 10 UNION ALL
  SELECT x * 100000, 1281, 0, 90 FROM i WHERE x < 500 UNION ALL
  SELECT x * 100000, 1281, 1, 30 FROM i WHERE x < 500 UNION ALL
  SELECT x * 100000, 1281, 2, 10 FROM i WHERE x < 500 UNION ALL
  SELECT x * 100000, 1281, 3, 1755 FROM i WHERE x < 500;
