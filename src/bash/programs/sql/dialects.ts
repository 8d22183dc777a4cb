/**
 * Each database's read-only statements and the functions it may call in them: pure functions of their
 * arguments and the rows read. A function not listed (a user's own, `pg_read_file`, `load_file`, `read_csv`,
 * `writefile`, `nextval`, `sleep`) makes a statement not read-only.
 */
export interface Dialect {
  name: 'sqlite' | 'duckdb' | 'postgres' | 'mysql';
  /** Statement kinds that only read, by their first word. */
  statements: ReadonlySet<string>;
  functions: ReadonlySet<string>;
  /** Words that stand before `(` as syntax (`IN (`, `OVER (`, `CAST(`), not as a call. */
  keywords: ReadonlySet<string>;
  /** Bare names that read or write files without `()` (sqlite's eponymous `fsdir`). */
  fileNames?: ReadonlySet<string>;
  /** Names in FROM are read as tables: false where a name may be a file read (DuckDB's replacement scans). */
  tableNames: boolean;
  /** What `SHOW` may list: the words that may follow it. */
  show?: ReadonlySet<string>;
}

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const COMMON_FUNCTIONS =
  'abs avg coalesce count max min nullif round sum lower upper length substr substring trim ltrim rtrim ' +
  'replace concat row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value ' +
  'nth_value floor ceil ceiling sign sqrt power mod exp ln';

const COMMON_KEYWORDS =
  'select from where and or not in exists as using over filter cast values on by then else when case join ' +
  'is between like distinct all union intersect except having limit offset group order with recursive ' +
  'partition window escape asc desc inner left right full cross outer natural null explain any some ' +
  'rows range preceding following unbounded current row nulls first last materialized';

export const SQLITE: Dialect = {
  name: 'sqlite',
  statements: words('select values with explain pragma'),
  functions: words(
    `${COMMON_FUNCTIONS} char concat_ws date datetime format glob group_concat hex ifnull iif instr json ` +
      'json_array json_array_length json_each json_extract json_group_array json_group_object json_object ' +
      'json_quote json_tree json_type json_valid julianday likelihood likely printf quote sqlite_version ' +
      'string_agg strftime time total typeof unicode unixepoch unlikely log log10 log2 pow pi acos asin atan ' +
      'atan2 cos sin tan degrees radians generate_series pragma_table_info pragma_table_xinfo ' +
      'pragma_index_list pragma_index_info pragma_index_xinfo pragma_foreign_key_list pragma_table_list ' +
      'pragma_database_list like',
  ),
  keywords: words(`${COMMON_KEYWORDS} glob collate query plan`),
  fileNames: words('fsdir zipfile zipfile_cds readfile writefile edit load_extension fts3_tokenizer sqlar'),
  tableNames: true,
};

export const DUCKDB: Dialect = {
  name: 'duckdb',
  statements: words('select values with explain show describe'),
  functions: words(
    `${COMMON_FUNCTIONS} concat_ws greatest least list_value array_agg list string_agg strftime strptime ` +
      'date_trunc date_part now current_date today epoch version typeof regexp_matches regexp_replace ' +
      'starts_with ends_with contains range generate_series unnest struct_pack to_json json_extract ' +
      'duckdb_tables duckdb_views duckdb_columns duckdb_schemas duckdb_databases duckdb_functions ' +
      'duckdb_indexes duckdb_constraints duckdb_types duckdb_settings md5 hash uuid gen_random_uuid random ' +
      'log log10 log2 pi',
  ),
  keywords: words(`${COMMON_KEYWORDS} glob ilike qualify struct map list`),
  tableNames: false,
  show: words('tables all databases'),
};

export const POSTGRES: Dialect = {
  name: 'postgres',
  statements: words('select values with explain show table'),
  functions: words(
    `${COMMON_FUNCTIONS} btrim concat_ws format greatest least to_char to_date to_timestamp to_number now ` +
      'date_trunc date_part extract age array_agg string_agg json_agg jsonb_agg json_build_object ' +
      'jsonb_build_object json_object_agg jsonb_object_agg row_to_json to_json to_jsonb jsonb_pretty ' +
      'array_length unnest generate_series version pg_size_pretty pg_relation_size pg_total_relation_size ' +
      'pg_table_size pg_indexes_size pg_database_size current_database current_schema pg_typeof ' +
      'regexp_replace regexp_matches split_part position strpos left right lpad rpad md5 bool_and bool_or ' +
      'every string_to_array array_to_string log pi random',
  ),
  keywords: words(`${COMMON_KEYWORDS} ilike similar array row interval timestamp date time lateral`),
  tableNames: true,
};

export const MYSQL: Dialect = {
  name: 'mysql',
  statements: words('select values with explain show describe desc'),
  functions: words(
    `${COMMON_FUNCTIONS} concat_ws ifnull if greatest least now curdate curtime date_format from_unixtime ` +
      'unix_timestamp date datediff date_add date_sub year month day hour minute second group_concat ' +
      'json_extract json_object json_array json_arrayagg json_objectagg json_unquote version database ' +
      'schema char_length left right lpad rpad locate instr format md5 hex unhex log log10 log2 pi',
  ),
  keywords: words(`${COMMON_KEYWORDS} regexp rlike interval`),
  tableNames: true,
  show: words(
    'tables full databases schemas columns fields index indexes keys create table view table status ' +
      'processlist variables global session warnings errors engines from in like',
  ),
};
