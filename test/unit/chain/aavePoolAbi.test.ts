import IPool from '@aave/core-v3/artifacts/contracts/interfaces/IPool.sol/IPool.json';
import { aavePoolAbi } from '../../../src/chain/protocols/aavePoolAbi';

describe("Aave's Pool ABI", () => {
  it("behavior: the ABI the Aave module encodes its calls with is @aave/core-v3's IPool, unchanged", () => {
    expect(JSON.parse(JSON.stringify(aavePoolAbi))).toEqual(IPool.abi);
  });
});
