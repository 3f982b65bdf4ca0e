// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// @title SandboxCreate2Factory
/// @notice Deploys init code with CREATE2 so sandbox addresses depend only on the factory
///         address, the salt and the init code (the factory itself is the deployer's first contract).
contract SandboxCreate2Factory {
    event Deployed(address indexed addr, bytes32 indexed salt);

    error DeployFailed();

    function deploy(bytes32 salt, bytes calldata initCode) external returns (address addr) {
        bytes memory code = initCode;
        assembly {
            addr := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (addr == address(0)) revert DeployFailed();
        emit Deployed(addr, salt);
    }

    function computeAddress(bytes32 salt, bytes32 initCodeHash) external view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
