// DOM matchers (toBeInTheDocument, toHaveAttribute, …): a failing assertion says what the
// element lacks, where toBeTruthy() only says "received null".
import '@testing-library/jest-dom/vitest';
