/** What a program written in an embedded language (an awk program, a sed script) may do when it runs. */
export interface EmbeddedSafety {
  /** True only when the text was parsed and every construct in it is known to do nothing but compute. */
  readOnly: boolean;
  /** Why it is not read-only: the first construct that is not known safe, or the parse error. */
  reason?: string;
  /** Files the program reads by name (sed `r`, awk `getline < "f"`). */
  reads: string[];
  /** Files the program writes by name (sed `w`, awk `print > "f"`). */
  writes: string[];
  /** Constructs that run commands or code automode cannot see, with the command text when it is known. */
  runs: { via: string; command?: string }[];
}
