// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// @notice The ERC-20 subset the sandbox pool, market and bridge call.
interface IERC20Minimal {
    function decimals() external view returns (uint8);
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Mint/burn hooks of SandboxToken used by the bridge.
interface IMintBurnToken is IERC20Minimal {
    function mint(address to, uint256 amount) external;
    function burn(uint256 amount) external;
}
