// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// @title SandboxPriceFeed
/// @notice Chainlink-AggregatorV3-like feed with 8 decimals whose answer the owner sets.
///         Each `setAnswer` starts a new round stamped with the block time.
contract SandboxPriceFeed {
    uint8 public constant decimals = 8;
    uint256 public constant version = 4;
    string public description;
    address public owner;

    uint80 public latestRound;
    int256 public latestAnswer;
    uint256 public latestTimestamp;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();

    constructor(string memory description_, address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        description = description_;
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setAnswer(int256 answer) external onlyOwner {
        latestRound += 1;
        latestAnswer = answer;
        latestTimestamp = block.timestamp;
        emit AnswerUpdated(answer, latestRound, block.timestamp);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (latestRound, latestAnswer, latestTimestamp, latestTimestamp, latestRound);
    }
}
